package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// scaleDocBlocks returns the fenced blocks of docs/SCALE.md in the given language.
func scaleDocBlocks(t *testing.T, lang string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "SCALE.md"))
	require.NoError(t, err)
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && line == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && line == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	require.Nil(t, cur, "unterminated %s block", lang)
	return blocks
}

// indexedJob is the part of a Kubernetes batch/v1 Job the listing uses; decoding with
// KnownFields refuses any other (misspelt) key.
type indexedJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		BackoffLimit   int    `yaml:"backoffLimit"`
		Template       struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name      string   `yaml:"name"`
					Image     string   `yaml:"image"`
					Command   []string `yaml:"command"`
					Args      []string `yaml:"args"`
					Resources struct {
						Requests map[string]string `yaml:"requests"`
						Limits   map[string]string `yaml:"limits"`
					} `yaml:"resources"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func TestScaleDocKubernetesIndexedJob(t *testing.T) {
	blocks := scaleDocYAML(t, "Job")
	require.Len(t, blocks, 1, "docs/SCALE.md has one Job listing")
	var job indexedJob
	dec := yaml.NewDecoder(strings.NewReader(blocks[0]))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&job))

	require.Equal(t, "batch/v1", job.APIVersion)
	require.Equal(t, "Job", job.Kind)
	require.Regexp(t, dnsLabel, job.Metadata.Name)
	s := job.Spec
	require.Equal(t, "Indexed", s.CompletionMode, "JOB_COMPLETION_INDEX is set only in Indexed Jobs")
	require.GreaterOrEqual(t, s.Completions, 1)
	require.True(t, s.Parallelism >= 1 && s.Parallelism <= s.Completions)
	require.Contains(t, []string{"Never", "OnFailure"}, s.Template.Spec.RestartPolicy, "a Job's pods may not restart Always")
	require.Len(t, s.Template.Spec.Containers, 1)
	c := s.Template.Spec.Containers[0]
	require.Regexp(t, dnsLabel, c.Name)
	require.NotEmpty(t, c.Image)
	volumes := map[string]bool{}
	for _, v := range s.Template.Spec.Volumes {
		require.NotEmpty(t, v.PersistentVolumeClaim.ClaimName, "volume %s", v.Name)
		volumes[v.Name] = true
	}
	var mounts []string
	for _, m := range c.VolumeMounts {
		require.True(t, volumes[m.Name], "mount %s has no volume", m.Name)
		require.True(t, filepath.IsAbs(m.MountPath))
		mounts = append(mounts, m.MountPath)
	}
	cmd := append(append([]string{}, c.Command...), c.Args...)
	require.Equal(t, "container", cmd[0])
	flags := map[string]string{}
	for _, a := range cmd[2:] {
		k, v, _ := strings.Cut(a, "=")
		flags[k] = v
	}
	require.Equal(t, "auto/"+strconv.Itoa(s.Completions), flags["--shard"], "--shard auto/N must name the Job's completions")
	require.Contains(t, flags, "--resume", "a retried pod continues its part")
	out := flags["--out"]
	onVolume := false
	for _, m := range mounts {
		onVolume = onVolume || strings.HasPrefix(out, m+"/")
	}
	require.True(t, onVolume, "--out %s is on the shared volume", out)

	// The command line runs: the last pod, with fewer games, into a temporary directory.
	root := t.TempDir()
	args := []string{cmd[1]}
	for _, a := range cmd[2:] {
		switch k, _, _ := strings.Cut(a, "="); k {
		case "--games":
			a = "--games=12"
		case "--shard-games":
			a = "--shard-games=1"
		case "--out":
			a = "--out=" + root
		}
		args = append(args, a)
	}
	last := s.Completions - 1
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, Main(args, nil, &stdout, &stderr), "no index variable: %s", stdout.String())
	require.Contains(t, stderr.String(), "neither JOB_COMPLETION_INDEX")
	ents, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Empty(t, ents, "nothing written without an index")
	t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(last))
	require.Equal(t, 0, Main(args, nil, &stdout, &stderr), stderr.String())
	m, err := datasets.ReadManifest(filepath.Join(root, shardName(last, s.Completions)))
	require.NoError(t, err)
	require.True(t, m.Complete())
	first, end := m.OwnedGames()
	require.Equal(t, [2]uint64{uint64(last * 12 / s.Completions), 12}, [2]uint64{first, end}, "the last part holds the last games")
}

func TestScaleDocSlurmArrayScript(t *testing.T) {
	var script string
	for _, b := range scaleDocBlocks(t, "bash") {
		if strings.Contains(b, "#SBATCH") {
			require.Empty(t, script, "one Slurm script")
			script = b
		}
	}
	require.NotEmpty(t, script, "docs/SCALE.md has a Slurm script")
	dir := t.TempDir()
	path := filepath.Join(dir, "selfplay.sbatch")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	out, err := exec.Command("bash", "-n", path).CombinedOutput()
	require.NoError(t, err, "bash -n: %s", out)

	arr := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindStringSubmatch(script)
	require.NotNil(t, arr, "the array starts at 0")
	shards := regexp.MustCompile(`(?m)^SHARDS=(\d+)$`).FindStringSubmatch(script)
	require.NotNil(t, shards)
	hi, _ := strconv.Atoi(arr[1])
	n, _ := strconv.Atoi(shards[1])
	require.Equal(t, hi+1, n, "SHARDS matches --array=0-(SHARDS-1)")

	// A container on the PATH that is this test binary running the command line.
	shim := filepath.Join(dir, "container")
	require.NoError(t, os.WriteFile(shim, []byte("#!/bin/sh\nCONTAINER_CLI_PROCESS=1 exec '"+os.Args[0]+
		"' -test.run='^TestCLIProcess$' -- \"$@\"\n"), 0o755))
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_") && !strings.HasPrefix(e, "JOB_COMPLETION_INDEX=") {
			env = append(env, e)
		}
	}
	out1 := filepath.Join(dir, "runs")
	env = append(env, "OUT="+out1, "GAMES=16", "SHARD_GAMES=1", "CONTAINER="+shim, "SLURM_CPUS_PER_TASK=1")
	run := func(extra ...string) (string, error) {
		cmd := exec.Command("bash", path)
		cmd.Env = append(append([]string{}, env...), extra...)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	got, err := run()
	require.Error(t, err, "no array index")
	require.Contains(t, got, "SLURM_ARRAY_TASK_ID")
	_, err = os.Stat(out1)
	require.ErrorIs(t, err, os.ErrNotExist, "nothing written without an index")

	got, err = run("SLURM_ARRAY_TASK_ID=3")
	require.NoError(t, err, got)
	m, err := datasets.ReadManifest(filepath.Join(out1, shardName(3, n)))
	require.NoError(t, err)
	require.True(t, m.Complete())
	first, end := m.OwnedGames()
	require.Equal(t, [2]uint64{uint64(3 * 16 / n), uint64(4 * 16 / n)}, [2]uint64{first, end})
	// The scheduler's retry of the same task continues (here: finds it complete).
	got, err = run("SLURM_ARRAY_TASK_ID=3")
	require.NoError(t, err, got)
	require.Contains(t, got, "played 0 games")
}

// scaleDocYAML returns the YAML listings of docs/SCALE.md whose top-level kind is kind.
func scaleDocYAML(t *testing.T, kind string) []string {
	t.Helper()
	var out []string
	for _, b := range scaleDocBlocks(t, "yaml") {
		var head struct {
			Kind string `yaml:"kind"`
		}
		require.NoError(t, yaml.Unmarshal([]byte(b), &head), "a YAML listing of docs/SCALE.md")
		if head.Kind == kind {
			out = append(out, b)
		}
	}
	return out
}

// rayPodTemplate is the part of a pod template the KubeRay listing uses.
type rayPodTemplate struct {
	Spec struct {
		Containers []struct {
			Name      string `yaml:"name"`
			Image     string `yaml:"image"`
			Resources struct {
				Requests map[string]string `yaml:"requests"`
			} `yaml:"resources"`
			VolumeMounts []struct {
				Name      string `yaml:"name"`
				MountPath string `yaml:"mountPath"`
			} `yaml:"volumeMounts"`
		} `yaml:"containers"`
		Volumes []struct {
			Name                  string `yaml:"name"`
			PersistentVolumeClaim struct {
				ClaimName string `yaml:"claimName"`
			} `yaml:"persistentVolumeClaim"`
		} `yaml:"volumes"`
	} `yaml:"spec"`
}

// TestScaleDocKubeRayCluster checks the KubeRay listing: a ray.io/v1 RayCluster whose head and
// worker pods all mount the shared volume at the same path (every shard writes under it and
// the merge reads it), each mount backed by a volume.
func TestScaleDocKubeRayCluster(t *testing.T) {
	blocks := scaleDocYAML(t, "RayCluster")
	require.Len(t, blocks, 1, "docs/SCALE.md has one RayCluster listing")
	var rc struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			HeadGroupSpec struct {
				RayStartParams map[string]string `yaml:"rayStartParams"`
				Template       rayPodTemplate    `yaml:"template"`
			} `yaml:"headGroupSpec"`
			WorkerGroupSpecs []struct {
				GroupName      string            `yaml:"groupName"`
				Replicas       int               `yaml:"replicas"`
				RayStartParams map[string]string `yaml:"rayStartParams"`
				Template       rayPodTemplate    `yaml:"template"`
			} `yaml:"workerGroupSpecs"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(strings.NewReader(blocks[0]))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&rc))
	require.Equal(t, "ray.io/v1", rc.APIVersion)
	require.Equal(t, "RayCluster", rc.Kind)
	require.Regexp(t, dnsLabel, rc.Metadata.Name)
	require.NotEmpty(t, rc.Spec.WorkerGroupSpecs)
	templates := []rayPodTemplate{rc.Spec.HeadGroupSpec.Template}
	for _, g := range rc.Spec.WorkerGroupSpecs {
		require.Regexp(t, dnsLabel, g.GroupName)
		require.GreaterOrEqual(t, g.Replicas, 1)
		templates = append(templates, g.Template)
	}
	mountPath := ""
	for _, tpl := range templates {
		require.Len(t, tpl.Spec.Containers, 1)
		c := tpl.Spec.Containers[0]
		require.NotEmpty(t, c.Image)
		require.NotEmpty(t, c.Resources.Requests["cpu"])
		volumes := map[string]bool{}
		for _, v := range tpl.Spec.Volumes {
			require.NotEmpty(t, v.PersistentVolumeClaim.ClaimName)
			volumes[v.Name] = true
		}
		require.Len(t, c.VolumeMounts, 1)
		require.True(t, volumes[c.VolumeMounts[0].Name], "mount %s has no volume", c.VolumeMounts[0].Name)
		if mountPath == "" {
			mountPath = c.VolumeMounts[0].MountPath
		}
		require.Equal(t, mountPath, c.VolumeMounts[0].MountPath, "every node sees the shared storage at one path")
	}
}
