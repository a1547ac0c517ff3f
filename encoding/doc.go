// Package encoding turns Container positions into fixed-length float32 tensors for learning:
// the per-player observation (read only from the player's redacted view and the public
// pending decision), the oracle (all-information) encoding for centralised critics, the
// legal-action mask over [0, rules.NumDistinctActions()), generic action names, and a
// versioned, named feature Spec.
//
// # Layout (obs-v2)
//
// Seats are rotated so that the observer is p0, the next seat clockwise p1, and so on; seats
// absent from 3- and 4-player games are all zero. Colour groups have five entries, six (gold
// last) with the Luxury module. Features of a module appear only when the module is on
// (company and truck features with Truck Companies, lenders and loan cards with Player
// Loans). Every feature has documented bounds (Feature.Low/High), roughly [0,1]: counts are
// divided by their natural limit (ship capacity, storage limit, containers in the game),
// dollars by $100 or $20 and clipped at 10. Spec.String and `container spec` print the table;
// docs/ENV.md summarises it.
//
// Changing the layout changes Version; Spec.Check refuses data recorded under another one.
//
// # Hot path
//
// An Encoder writes into caller buffers and allocates nothing per call. It keeps scratch
// space, so use one per goroutine.
package encoding
