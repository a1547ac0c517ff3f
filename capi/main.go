package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/container-rl/container/capi/bridge"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/internal/strictjson"
)

// The C int64_t arrays of agents and actions are read as Go ints.
const intIs64 = unsafe.Sizeof(int(0)) == 8

// call runs f under bridge.Guard and reports its error through err/errcap.
func call(errb *C.char, errcap C.int64_t, f func() error) C.int {
	err := bridge.Guard(func() error {
		if !intIs64 {
			return fmt.Errorf("%w: this build needs 64-bit ints", bridge.ErrInternal)
		}
		return f()
	})
	if err == nil {
		return 0
	}
	if errb != nil && errcap > 0 {
		msg := bridge.OneLine(err)
		dst := unsafe.Slice((*byte)(unsafe.Pointer(errb)), int(errcap))
		n := copy(dst[:len(dst)-1], msg)
		dst[n] = 0
	}
	return C.int(bridge.Code(err))
}

// slice views n elements at p (nil for a nil pointer or n == 0).
func slice[T any](p unsafe.Pointer, n C.int64_t) ([]T, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: negative length %d", bridge.ErrInvalid, n)
	}
	if p == nil {
		if n == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("%w: null buffer of length %d", bridge.ErrInvalid, n)
	}
	return unsafe.Slice((*T)(p), int(n)), nil
}

// text writes s into out/cap, or the needed size into *need.
func text(s string, out *C.char, cap C.int64_t, need *C.int64_t) error {
	dst, err := slice[byte](unsafe.Pointer(out), cap)
	if err != nil {
		return err
	}
	n, err := bridge.WriteString(s, dst)
	if need != nil {
		*need = C.int64_t(n)
	}
	return err
}

func str(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

//export ctr_abi_version
func ctr_abi_version() C.int64_t { return bridge.ABIVersion }

//export ctr_game_seed
func ctr_game_seed(base C.uint64_t, game, episode C.int64_t) C.uint64_t {
	return C.uint64_t(env.GameSeed(uint64(base), int(game), int(episode)))
}

//export ctr_open_handles
func ctr_open_handles() C.int64_t { return C.int64_t(bridge.Open()) }

//export ctr_sizes
func ctr_sizes(opts *C.char, out *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SizesOf(str(opts))
		if err != nil {
			return err
		}
		o, err := slice[C.int64_t](unsafe.Pointer(out), 3)
		if err != nil {
			return err
		}
		o[0], o[1], o[2] = C.int64_t(s.Obs), C.int64_t(s.Actions), C.int64_t(s.Players)
		return nil
	})
}

//export ctr_free
func ctr_free(h C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.Free(int64(h)) })
}

//export ctr_env_new
func ctr_env_new(opts *C.char, d, a, p C.int64_t, obs *C.float, mask *C.int8_t, legal *C.int32_t,
	rewards, since, total *C.float, status *C.int64_t, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		var b bridge.EnvBuffers
		var err error
		if b.Obs, err = slice[float32](unsafe.Pointer(obs), d); err != nil {
			return err
		}
		if b.Mask, err = slice[int8](unsafe.Pointer(mask), a); err != nil {
			return err
		}
		if b.Legal, err = slice[int32](unsafe.Pointer(legal), a); err != nil {
			return err
		}
		if b.Rewards, err = slice[float32](unsafe.Pointer(rewards), p); err != nil {
			return err
		}
		if b.Since, err = slice[float32](unsafe.Pointer(since), p); err != nil {
			return err
		}
		if b.Total, err = slice[float32](unsafe.Pointer(total), p); err != nil {
			return err
		}
		if b.Status, err = slice[int64](unsafe.Pointer(status), bridge.StatusLen); err != nil {
			return err
		}
		id, err := bridge.NewEnv(str(opts), b)
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_env_reset
func ctr_env_reset(h C.int64_t, seed C.uint64_t, opts *C.char, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.EnvReset(int64(h), uint64(seed), str(opts)) })
}

//export ctr_env_step
func ctr_env_step(h, action C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.EnvStep(int64(h), int(action)) })
}

//export ctr_env_observe
func ctr_env_observe(h, seat C.int64_t, obs *C.float, d C.int64_t, mask *C.int8_t, a C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float32](unsafe.Pointer(obs), d)
		if err != nil {
			return err
		}
		m, err := slice[int8](unsafe.Pointer(mask), a)
		if err != nil {
			return err
		}
		return bridge.EnvObserve(int64(h), int(seat), o, m)
	})
}

//export ctr_env_oracle
func ctr_env_oracle(h, seat C.int64_t, obs *C.float, d C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float32](unsafe.Pointer(obs), d)
		if err != nil {
			return err
		}
		return bridge.EnvOracle(int64(h), int(seat), o)
	})
}

//export ctr_env_info
func ctr_env_info(h C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.EnvInfoJSON(int64(h))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_env_record
func ctr_env_record(h C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.EnvRecordJSON(int64(h))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_vec_new
func ctr_vec_new(n C.int64_t, opts *C.char, seed C.uint64_t, workers C.int64_t, d, a, p C.int64_t,
	obs, mask, rewards *C.float, agents *C.int64_t, terminated, truncated *C.uint8_t,
	legal, numLegal *C.int32_t, mask8 *C.int8_t, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.VecSizes(int(n), str(opts))
		if err != nil {
			return err
		}
		if int(d) != s.Obs || int(a) != s.Actions || int(p) != s.Players {
			return fmt.Errorf("%w: buffers sized for D=%d A=%d P=%d; these options need D=%d A=%d P=%d",
				bridge.ErrInvalid, d, a, p, s.Obs, s.Actions, s.Players)
		}
		var b env.VecBuffers
		if b.Obs, err = slice[float32](unsafe.Pointer(obs), n*d); err != nil {
			return err
		}
		if b.Mask, err = slice[float32](unsafe.Pointer(mask), n*a); err != nil {
			return err
		}
		if b.Rewards, err = slice[float32](unsafe.Pointer(rewards), n*p); err != nil {
			return err
		}
		if b.Agents, err = slice[int](unsafe.Pointer(agents), n); err != nil {
			return err
		}
		if b.Terminated, err = slice[bool](unsafe.Pointer(terminated), n); err != nil {
			return err
		}
		if b.Truncated, err = slice[bool](unsafe.Pointer(truncated), n); err != nil {
			return err
		}
		if b.Legal, err = slice[int32](unsafe.Pointer(legal), n*a); err != nil {
			return err
		}
		if b.NumLegal, err = slice[int32](unsafe.Pointer(numLegal), n); err != nil {
			return err
		}
		if b.Mask8, err = slice[int8](unsafe.Pointer(mask8), n*a); err != nil {
			return err
		}
		id, err := bridge.NewVec(int(n), str(opts), uint64(seed), int(workers), b)
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_vec_step
func ctr_vec_step(h C.int64_t, actions *C.int64_t, n C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		acts, err := slice[int](unsafe.Pointer(actions), n)
		if err != nil {
			return err
		}
		return bridge.VecStep(int64(h), acts)
	})
}

//export ctr_vec_reset
func ctr_vec_reset(h C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.VecReset(int64(h)) })
}

//export ctr_vec_game
func ctr_vec_game(h, i C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.VecGameJSON(int64(h), int(i))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_vec_observe
func ctr_vec_observe(h, i, seat C.int64_t, obs *C.float, d C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float32](unsafe.Pointer(obs), d)
		if err != nil {
			return err
		}
		return bridge.VecObserve(int64(h), int(i), int(seat), o)
	})
}

//export ctr_bots
func ctr_bots(out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.BotsJSON()
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_bot_new
func ctr_bot_new(spec, opts *C.char, seed C.uint64_t, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		id, err := bridge.NewBot(str(spec), str(opts), uint64(seed))
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_bot_act_env
func ctr_bot_act_env(bh, eh C.int64_t, action *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		a, err := bridge.BotActEnv(int64(bh), int64(eh))
		*action = C.int64_t(a)
		return err
	})
}

//export ctr_bot_act_vec
func ctr_bot_act_vec(bh, vh, i C.int64_t, action *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		a, err := bridge.BotActVec(int64(bh), int64(vh), int(i))
		*action = C.int64_t(a)
		return err
	})
}

//export ctr_table_new
func ctr_table_new(vh C.int64_t, specs *C.char, seed C.uint64_t, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		var list []string
		if err := strictjson.Decode([]byte(str(specs)), &list); err != nil {
			return fmt.Errorf("%w: bot specs: want a JSON list of strings: %v", bridge.ErrInvalid, err)
		}
		id, err := bridge.NewTable(int64(vh), list, uint64(seed))
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_table_act
func ctr_table_act(th C.int64_t, actions *C.int64_t, isBot *C.int8_t, n C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		acts, err := slice[int](unsafe.Pointer(actions), n)
		if err != nil {
			return err
		}
		ib, err := slice[int8](unsafe.Pointer(isBot), n)
		if err != nil {
			return err
		}
		return bridge.TableAct(int64(th), acts, ib)
	})
}

//export ctr_spec
func ctr_spec(opts *C.char, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SpecJSON(str(opts))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_score
func ctr_score(position *C.char, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.ScoreJSON(str(position))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_observe_position
func ctr_observe_position(position *C.char, seat, hideCash C.int64_t, obs *C.float, d C.int64_t, decider *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float32](unsafe.Pointer(obs), d)
		if err != nil {
			return err
		}
		dec, err := bridge.ObservePositionJSON(str(position), int(seat), hideCash != 0, o)
		*decider = C.int64_t(dec)
		return err
	})
}

//export ctr_bench_vec
func ctr_bench_vec(n, workers, iters C.int64_t, seed C.uint64_t, out *C.double, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		r, err := bridge.BenchVec(int(n), int(workers), int(iters), uint64(seed))
		*out = C.double(r)
		return err
	})
}

//export ctr_env_opponents
func ctr_env_opponents(h C.int64_t, specs *C.char, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		var list []string
		if err := strictjson.Decode([]byte(str(specs)), &list); err != nil {
			return fmt.Errorf("%w: bot specs: want a JSON list of strings: %v", bridge.ErrInvalid, err)
		}
		return bridge.EnvSetOpponents(int64(h), list)
	})
}

//export ctr_env_play
func ctr_env_play(h C.int64_t, moves *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		n, err := bridge.EnvPlay(int64(h))
		if moves != nil {
			*moves = C.int64_t(n)
		}
		return err
	})
}

//export ctr_env_step_play
func ctr_env_step_play(h, action C.int64_t, moves *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		n, err := bridge.EnvStepPlay(int64(h), int(action))
		if moves != nil {
			*moves = C.int64_t(n)
		}
		return err
	})
}

//export ctr_env_render
func ctr_env_render(h, viewer C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.EnvRenderText(int64(h), int(viewer))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_solo_new
func ctr_solo_new(n C.int64_t, opts, opponents *C.char, seat C.int64_t, seed C.uint64_t, workers, d, a C.int64_t,
	obs *C.float, mask *C.int8_t, reward *C.float, terminated, truncated *C.uint8_t, seats *C.int64_t,
	finalObs *C.float, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.VecSizes(int(n), str(opts))
		if err != nil {
			return err
		}
		if int(d) != s.Obs || int(a) != s.Actions {
			return fmt.Errorf("%w: buffers sized for D=%d A=%d; these options need D=%d A=%d", bridge.ErrInvalid, d, a, s.Obs, s.Actions)
		}
		var list []string
		if err := strictjson.Decode([]byte(str(opponents)), &list); err != nil {
			return fmt.Errorf("%w: opponents: want a JSON list of strings: %v", bridge.ErrInvalid, err)
		}
		var b bridge.SoloBuffers
		if b.Obs, err = slice[float32](unsafe.Pointer(obs), n*d); err != nil {
			return err
		}
		if b.Mask, err = slice[int8](unsafe.Pointer(mask), n*a); err != nil {
			return err
		}
		if b.Reward, err = slice[float32](unsafe.Pointer(reward), n); err != nil {
			return err
		}
		if b.Terminated, err = slice[bool](unsafe.Pointer(terminated), n); err != nil {
			return err
		}
		if b.Truncated, err = slice[bool](unsafe.Pointer(truncated), n); err != nil {
			return err
		}
		if b.Seat, err = slice[int64](unsafe.Pointer(seats), n); err != nil {
			return err
		}
		if b.FinalObs, err = slice[float32](unsafe.Pointer(finalObs), n*d); err != nil {
			return err
		}
		id, err := bridge.NewSolo(int(n), str(opts), list, int(seat), uint64(seed), int(workers), b)
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_solo_reset
func ctr_solo_reset(h C.int64_t, seed C.uint64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.SoloReset(int64(h), uint64(seed)) })
}

//export ctr_solo_step
func ctr_solo_step(h C.int64_t, actions *C.int64_t, n C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		acts, err := slice[int](unsafe.Pointer(actions), n)
		if err != nil {
			return err
		}
		return bridge.SoloStep(int64(h), acts)
	})
}

//export ctr_solo_game
func ctr_solo_game(h, i C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SoloGameJSON(int64(h), int(i))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

// --- OpenSpiel states (python/container_rl/openspiel.py) ---

//export ctr_spiel_game
func ctr_spiel_game(opts *C.char, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SpielGameJSON(str(opts))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_spiel_new
func ctr_spiel_new(opts *C.char, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		id, err := bridge.NewSpiel(str(opts))
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_spiel_position
func ctr_spiel_position(opts, position *C.char, h *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		id, err := bridge.NewSpielPosition(str(opts), str(position))
		*h = C.int64_t(id)
		return err
	})
}

//export ctr_spiel_clone
func ctr_spiel_clone(h C.int64_t, out *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		id, err := bridge.SpielClone(int64(h))
		*out = C.int64_t(id)
		return err
	})
}

//export ctr_spiel_status
func ctr_spiel_status(h C.int64_t, legal *C.int32_t, probs *C.double, a C.int64_t, out *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		l, err := slice[int32](unsafe.Pointer(legal), a)
		if err != nil {
			return err
		}
		p, err := slice[float64](unsafe.Pointer(probs), a)
		if err != nil {
			return err
		}
		o, err := slice[int64](unsafe.Pointer(out), 2)
		if err != nil {
			return err
		}
		return bridge.SpielStatus(int64(h), l, p, o)
	})
}

//export ctr_spiel_apply
func ctr_spiel_apply(h, action C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error { return bridge.SpielApply(int64(h), int(action)) })
}

//export ctr_spiel_returns
func ctr_spiel_returns(h C.int64_t, out *C.double, n C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float64](unsafe.Pointer(out), n)
		if err != nil {
			return err
		}
		return bridge.SpielReturns(int64(h), o)
	})
}

//export ctr_spiel_observe
func ctr_spiel_observe(h, seat C.int64_t, obs *C.float, d C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float32](unsafe.Pointer(obs), d)
		if err != nil {
			return err
		}
		return bridge.SpielObserve(int64(h), int(seat), o)
	})
}

//export ctr_spiel_text
func ctr_spiel_text(h, seat, kind C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SpielText(int64(h), int(seat), int(kind))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_spiel_action_text
func ctr_spiel_action_text(h, action C.int64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SpielActionText(int64(h), int(action))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_spiel_resample
func ctr_spiel_resample(h, seat C.int64_t, seed C.uint64_t, out *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		id, err := bridge.SpielResample(int64(h), int(seat), uint64(seed))
		*out = C.int64_t(id)
		return err
	})
}

//export ctr_spiel_setup_draws
func ctr_spiel_setup_draws(opts *C.char, seed C.uint64_t, out *C.char, cap C.int64_t, need *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		s, err := bridge.SpielSetupDraws(str(opts), uint64(seed))
		if err != nil {
			return err
		}
		return text(s, out, cap, need)
	})
}

//export ctr_bot_act_spiel
func ctr_bot_act_spiel(bh, sh C.int64_t, action *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		a, err := bridge.BotActSpiel(int64(bh), int64(sh))
		*action = C.int64_t(a)
		return err
	})
}

//export ctr_wilson
func ctr_wilson(wins C.double, n C.int64_t, z C.double, out *C.double, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float64](unsafe.Pointer(out), 2)
		if err != nil {
			return err
		}
		if n < 0 || wins < 0 || float64(wins) > float64(n) {
			return fmt.Errorf("%w: %v wins out of %d games", bridge.ErrInvalid, float64(wins), n)
		}
		o[0], o[1] = bridge.Wilson(float64(wins), int(n), float64(z))
		return nil
	})
}

//export ctr_spiel_rollout
func ctr_spiel_rollout(h C.int64_t, seed C.uint64_t, kind C.int64_t, out *C.double, n C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[float64](unsafe.Pointer(out), n)
		if err != nil {
			return err
		}
		return bridge.SpielRollout(int64(h), uint64(seed), int(kind), o)
	})
}

//export ctr_bot_stats
func ctr_bot_stats(bh C.int64_t, out *C.int64_t, errb *C.char, errcap C.int64_t) C.int {
	return call(errb, errcap, func() error {
		o, err := slice[int64](unsafe.Pointer(out), 3)
		if err != nil {
			return err
		}
		return bridge.BotStatsOf(int64(bh), o)
	})
}
