"""RLlib adapter: the PettingZoo AEC env as RLlib's turn-based ``MultiAgentEnv``.

Only the seat that decides gets an observation, a dict of ``observations`` (obs-v2) and
``action_mask`` (float32 0/1), the form RLlib's ``ActionMaskingTorchRLModule`` reads; every
seat gets a reward at every step (RLlib asks for one for each agent that acted); when the
game ends every seat gets its last observation and ``terminateds``. Nothing of the game is
here: the AEC env (``container_rl.pettingzoo.raw_env``, the Go engine) does it all. Used by
``python/examples/rllib_ppo.py``; needs ``ray[rllib]`` (imported when this module is).
"""

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .aec import ContainerEnv
from .evaluation import wilson  # noqa: F401  (the example's intervals)


def _aec_env(**options):
    try:
        from .pettingzoo import raw_env
    except ImportError:  # a package without the PettingZoo adapter: the same AEC core
        return ContainerEnv(**options)
    return raw_env(**options)


class ContainerMultiAgentEnv(MultiAgentEnv):
    """The AEC game as RLlib's turn-based MultiAgentEnv: each step takes the deciding seat's
    action and returns the next decider's observation; rewards go to every seat as the game
    hands them out; at the end every seat gets its last observation and ``terminateds``."""

    def __init__(self, config=None):
        super().__init__()
        config = dict(config or {})
        self._seed = int(config.pop("seed", 0))
        self.aec = _aec_env(**config)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        self.aec.reset(seed=0)
        probe = self.aec.observe(self.aec.agent_selection)
        dim, n = int(probe["observation"].shape[0]), int(probe["action_mask"].shape[0])
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(-np.inf, np.inf, (dim,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(n) for a in self.possible_agents}
        self._episodes = 0

    def _obs(self, agent):
        o = self.aec.observe(agent)
        return {"observations": np.asarray(o["observation"], np.float32),
                "action_mask": np.asarray(o["action_mask"], np.float32)}

    def _advance(self):
        """Skips finished seats' dead steps; returns the decider or None at the end."""
        while self.aec.agents:
            agent = self.aec.agent_selection
            if self.aec.terminations[agent] or self.aec.truncations[agent]:
                self.aec.step(None)
                continue
            return agent
        return None

    def reset(self, *, seed=None, options=None):
        if seed is None:
            seed = self._seed * 1_000_003 + self._episodes
        self._episodes += 1
        self.aec.reset(seed=int(seed))
        self._returns = {a: 0.0 for a in self.possible_agents}
        agent = self._advance()
        return {agent: self._obs(agent)}, {}

    def step(self, action_dict):
        (agent, action), = action_dict.items()
        self.aec.step(int(action))
        # Every seat gets a reward each step (0 mostly): RLlib requires one for each agent
        # that acted and receives its next observation.
        rewards = {a: float(self.aec.rewards.get(a, 0.0)) for a in self.possible_agents}
        nxt = self._advance()
        if nxt is None or not self.aec.agents:
            obs = {a: self._obs(a) for a in self.possible_agents}
            final = getattr(self.aec, "core", self.aec).episode_returns  # raw_env's ContainerEnv
            rewards = {a: float(final[a]) - self._returns[a] for a in self.possible_agents}
            done = {a: True for a in self.possible_agents}
            done["__all__"] = True
            trunc = {"__all__": False}
            return obs, rewards, done, trunc, {}
        for a, r in rewards.items():
            self._returns[a] += r
        return {nxt: self._obs(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}
