//! King and pawn against king, solved: a bitbase of every position, built once by retrograde
//! iteration (about 200,000 positions, a few milliseconds) the first time the evaluation meets
//! the ending.
//!
//! Why: whether a lone pawn wins depends on the opposition, the key squares and the rook-pawn
//! corner, exact facts no weight can hold. A linear evaluation scores a pawn up as a pawn up, so
//! it trades into drawn pawn endings and misses won ones; every strong classical engine probes a
//! KPK bitbase instead (Stockfish's `bitbase.cpp` is the model of the method used here).
//!
//! Positions are seen with the pawn white's and on files a–d (the caller mirrors the rest):
//! index = (side to move, white king, black king, pawn square among the 24 of files a–d,
//! ranks 2–7). Squares are 0..64 with a1 = 0, b1 = 1, …, h8 = 63.

use std::sync::OnceLock;

const POSITIONS: usize = 2 * 64 * 64 * 24;

// Classification while building; the final table keeps only "win" as one bit.
const INVALID: u8 = 0;
const UNKNOWN: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 4;

fn file(s: usize) -> usize {
    s & 7
}

fn rank(s: usize) -> usize {
    s >> 3
}

fn distance(a: usize, b: usize) -> usize {
    file(a).abs_diff(file(b)).max(rank(a).abs_diff(rank(b)))
}

/// The squares a king on `s` attacks.
fn king_attacks(s: usize) -> u64 {
    (0..64)
        .filter(|&t| t != s && distance(s, t) == 1)
        .fold(0, |m, t| m | 1 << t)
}

/// The squares a white pawn on `s` attacks.
fn pawn_attacks(s: usize) -> u64 {
    let mut m = 0;
    if rank(s) < 7 {
        if file(s) > 0 {
            m |= 1 << (s + 7);
        }
        if file(s) < 7 {
            m |= 1 << (s + 9);
        }
    }
    m
}

/// The pawn's index among files a–d, ranks 2–7.
fn pawn_index(p: usize) -> usize {
    debug_assert!(file(p) < 4 && (1..7).contains(&rank(p)));
    file(p) + 4 * (rank(p) - 1)
}

fn index(white_to_move: bool, wk: usize, bk: usize, p: usize) -> usize {
    ((usize::from(!white_to_move) * 64 + wk) * 64 + bk) * 24 + pawn_index(p)
}

fn decode(i: usize) -> (bool, usize, usize, usize) {
    let pi = i % 24;
    let bk = i / 24 % 64;
    let wk = i / (24 * 64) % 64;
    let white = i / (24 * 64 * 64) == 0;
    (white, wk, bk, (pi & 3) + 8 * (pi / 4 + 1))
}

struct Tables {
    king: [u64; 64],
}

/// The value a position has before any search: illegal, decided by one rule, or unknown.
fn initial(t: &Tables, white: bool, wk: usize, bk: usize, p: usize) -> u8 {
    if distance(wk, bk) <= 1 || wk == p || bk == p {
        return INVALID;
    }
    if white && pawn_attacks(p) & 1 << bk != 0 {
        return INVALID; // the side not to move is in check
    }
    if white {
        // A pawn on the seventh promotes if the queen cannot be taken at once.
        let q = p + 8;
        if rank(p) == 6 && wk != q && (distance(bk, q) > 1 || distance(wk, q) == 1) {
            return WIN;
        }
        return UNKNOWN;
    }
    let flight = t.king[bk] & !(t.king[wk] | pawn_attacks(p));
    if flight == 0 {
        // No legal move: mate if the pawn gives check, stalemate otherwise.
        return if pawn_attacks(p) & 1 << bk != 0 {
            WIN
        } else {
            DRAW
        };
    }
    if flight & 1 << p != 0 {
        return DRAW; // the undefended pawn is taken
    }
    UNKNOWN
}

/// The values of the king's successors (`targets`, the pawn's square `p` left out: a capture is
/// a rule of `initial`), or-ed together; illegal successors are `INVALID` (0) and add nothing.
fn king_moves(targets: u64, p: usize, value: impl Fn(usize) -> u8) -> u8 {
    let mut r = 0;
    let mut kings = targets & !(1 << p);
    while kings != 0 {
        r |= value(kings.trailing_zeros() as usize);
        kings &= kings - 1;
    }
    r
}

/// One step of the iteration: the value from the children's values (`UNKNOWN` if not decided).
fn classify(t: &Tables, db: &[u8], white: bool, wk: usize, bk: usize, p: usize) -> u8 {
    if white {
        let mut r = king_moves(t.king[wk], p, |s| db[index(false, s, bk, p)]);
        if rank(p) < 6 && p + 8 != wk && p + 8 != bk {
            r |= db[index(false, wk, bk, p + 8)];
            if rank(p) == 1 && p + 16 != wk && p + 16 != bk {
                r |= db[index(false, wk, bk, p + 16)];
            }
        }
        decide(r, WIN, DRAW)
    } else {
        decide(
            king_moves(t.king[bk], p, |s| db[index(true, wk, s, p)]),
            DRAW,
            WIN,
        )
    }
}

/// The mover's value from its successors' or-ed values `r`: `best` (its own result) if one
/// successor has it, `UNKNOWN` while one is undecided, otherwise `worst`.
fn decide(r: u8, best: u8, worst: u8) -> u8 {
    if r & best != 0 {
        best
    } else if r & UNKNOWN != 0 {
        UNKNOWN
    } else {
        worst
    }
}

/// Every position's value: iterate until nothing changes; what is still unknown then cannot be
/// forced to a win, so it is a draw.
fn build() -> Vec<u8> {
    let mut t = Tables { king: [0; 64] };
    for (s, k) in t.king.iter_mut().enumerate() {
        *k = king_attacks(s);
    }
    let mut db: Vec<u8> = (0..POSITIONS)
        .map(|i| {
            let (w, wk, bk, p) = decode(i);
            initial(&t, w, wk, bk, p)
        })
        .collect();
    loop {
        let mut changed = false;
        for i in 0..POSITIONS {
            if db[i] == UNKNOWN {
                let (w, wk, bk, p) = decode(i);
                let v = classify(&t, &db, w, wk, bk, p);
                if v != UNKNOWN {
                    db[i] = v;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for v in db.iter_mut() {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    }
    db
}

fn table() -> &'static [u8] {
    static DB: OnceLock<Vec<u8>> = OnceLock::new();
    DB.get_or_init(build)
}

/// Whether the side with the pawn wins: `white_to_move` with the pawn white's, squares as in
/// the module doc (the pawn on any file; files e–h are mirrored here). `None` for a position
/// that cannot occur (kings touching, a piece on another's square, the side not to move in
/// check, a pawn on the first or last rank).
pub fn probe(white_to_move: bool, wk: usize, bk: usize, p: usize) -> Option<bool> {
    if wk >= 64 || bk >= 64 || p >= 64 || !(1..7).contains(&rank(p)) {
        return None;
    }
    let (wk, bk, p) = if file(p) >= 4 {
        (wk ^ 7, bk ^ 7, p ^ 7)
    } else {
        (wk, bk, p)
    };
    match table()[index(white_to_move, wk, bk, p)] {
        INVALID => None,
        v => Some(v == WIN),
    }
}
