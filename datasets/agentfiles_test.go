package datasets

import (
	"strings"
	"testing"
)

// Two parts of a split run whose bot-file agent was re-exported between them hold two
// networks under one name: merge refuses them.
func TestMergePlansDifferWhenTheNetworksBehindAnAgentDiffer(t *testing.T) {
	a := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "aa"}}}
	b := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "bb"}}}
	if d := planDiff(a, b); !strings.Contains(d, "agent networks") {
		t.Fatalf("planDiff = %q, want the agent networks named", d)
	}
	if d := planDiff(a, a); d != "" {
		t.Fatalf("planDiff of one plan = %q", d)
	}
}
