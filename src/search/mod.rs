//! The generic PVS search (Lazy SMP, lock-free transposition table), written once for every game.
