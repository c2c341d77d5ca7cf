//! The incremental evaluation of the `bonanza` feature set: the accumulator (piece lists in both
//! views, running sums), its refresh from scratch and its update after a move.

use super::*;

/// The incremental state: the piece list in both views, where each board piece sits in it, and the
/// running sums. Hand slots 0..14 are fixed (`2·hand piece + owner is white`); board pieces follow.
#[derive(Clone, Debug)]
pub struct BonanzaAcc {
    /// `list[0]`: conditions seen by black; `list[1]`: seen by white.
    pub(super) list: [[u16; MAX_LIST]; 2],
    pub(super) sq_of_slot: [u8; MAX_LIST],
    pub(super) slot_of_sq: [u8; 81],
    pub(super) n: u8,
    /// KP + KPP sum of each king, from its owner's view (black's, white's).
    pub(super) kpp: [i32; 2],
    /// KKP sum from black's view.
    pub(super) kkp: i32,
    /// Material from black's view, in piece values.
    pub(super) material: i32,
    /// Bonanza squares of the black and the white king.
    pub(super) kings: [u8; 2],
}

impl BonanzaAcc {
    /// The running sums `(material, [KP+KPP of black's king, of white's king], KKP)`: tests compare
    /// them exactly between incremental and from-scratch accumulators.
    pub fn sums(&self) -> (i32, [i32; 2], i32) {
        (self.material, self.kpp, self.kkp)
    }
}

impl Default for BonanzaAcc {
    fn default() -> Self {
        BonanzaAcc {
            list: [[0; MAX_LIST]; 2],
            sq_of_slot: [NONE; MAX_LIST],
            slot_of_sq: [NONE; 81],
            n: 0,
            kpp: [0; 2],
            kkp: 0,
            material: 0,
            kings: [0; 2],
        }
    }
}

pub(super) const NONE: u8 = u8::MAX;

#[inline]
pub(super) fn is_black(c: Color) -> bool {
    c == Color::Black
}

#[inline]
pub(super) fn hand_slot(black: bool, hp: usize) -> usize {
    2 * hp + usize::from(!black)
}

/// All conditions of a position: 14 hand conditions then the board pieces, and the king squares.
pub(super) fn conditions(b: &Board, out: &mut Vec<Cond>) -> [u8; 2] {
    out.clear();
    for hp in 0..7usize {
        for color in [Color::Black, Color::White] {
            out.push(Cond::Hand {
                black: is_black(color),
                hp: hp as u8,
                n: b.hand(color)[hp],
            });
        }
    }
    for color in [Color::Black, Color::White] {
        for piece in Piece::ALL {
            if piece == Piece::King {
                continue;
            }
            for sq in b.colored_pieces(color, piece) {
                if let Some(c) = Cond::board(color, piece, sq) {
                    out.push(c);
                }
            }
        }
    }
    [bsq(b.king(Color::Black)), bsq(b.king(Color::White))]
}

pub(super) fn material_value(w: &[i32], c: Cond) -> i32 {
    // Only called with the material table present (it is required).
    match c {
        Cond::Hand { hp, n, .. } => {
            let p = Piece::try_index(hp as usize).unwrap_or(Piece::Pawn);
            w[material_index(p)].wrapping_mul(n as i32)
        }
        Cond::Board { .. } => 0,
    }
}

/// The KKP term of a condition, from black's view.
#[inline]
pub(super) fn kkp_term(kkp: &[i16], kings: [u8; 2], c: Cond) -> i32 {
    if kkp.is_empty() {
        return 0;
    }
    let (l, black) = c.kkp();
    let (k, k2, sign) = if black {
        (kings[0], kings[1], 1)
    } else {
        (flip_sq(kings[1]), flip_sq(kings[0]), -1)
    };
    sign * kkp[(k as usize * 81 + k2 as usize) * KKP_END + l as usize] as i32
}

/// KP + KPP sum of one view from scratch.
pub(super) fn kpp_sum(kp: &[i16], kpp: &[i16], k: usize, list: &[u16]) -> i32 {
    let mut s = 0i32;
    if !kp.is_empty() {
        let row = &kp[k * FE..(k + 1) * FE];
        for &a in list {
            s += row[a as usize] as i32;
        }
    }
    if !kpp.is_empty() {
        let base = k * FE * FE;
        for (i, &a) in list.iter().enumerate() {
            let row = &kpp[base + a as usize * FE..base + (a as usize + 1) * FE];
            for &b in &list[..i] {
                s += row[b as usize] as i32;
            }
        }
    }
    s
}

/// King square of a view, seen by the view's owner.
#[inline]
pub(super) fn view_king(kings: [u8; 2], v: usize) -> usize {
    if v == 0 {
        kings[0] as usize
    } else {
        flip_sq(kings[1]) as usize
    }
}

impl Bonanza {
    pub(super) fn refresh_acc(w: &Weights, b: &Board, acc: &mut BonanzaAcc) {
        let mut conds = Vec::with_capacity(MAX_LIST);
        let kings = conditions(b, &mut conds);
        let mat = w.i32(T_MATERIAL);
        let kkp = w.i16(T_KKP);
        acc.kings = kings;
        acc.slot_of_sq = [NONE; 81];
        acc.kkp = 0;
        acc.material = 0;
        for (i, &c) in conds.iter().enumerate() {
            acc.list[0][i] = c.bp(true);
            acc.list[1][i] = c.bp(false);
            acc.sq_of_slot[i] = NONE;
            if let Cond::Board { sq, .. } = c {
                acc.sq_of_slot[i] = sq;
                acc.slot_of_sq[sq as usize] = i as u8;
            }
            acc.kkp += kkp_term(kkp, kings, c);
        }
        acc.n = conds.len() as u8;
        // Material straight from the board (promoted pieces have their own values).
        for color in [Color::Black, Color::White] {
            let sign = if is_black(color) { 1 } else { -1 };
            for piece in Piece::ALL {
                if piece == Piece::King {
                    continue;
                }
                let n = b.colored_pieces(color, piece).len() as i32;
                acc.material = acc
                    .material
                    .wrapping_add(sign * n.wrapping_mul(mat[material_index(piece)]));
            }
            for hp in 0..7u8 {
                let c = Cond::Hand {
                    black: is_black(color),
                    hp,
                    n: b.hand(color)[hp as usize],
                };
                acc.material = acc.material.wrapping_add(sign * material_value(mat, c));
            }
        }
        for v in 0..2 {
            let n = acc.n as usize;
            acc.kpp[v] = kpp_sum(
                w.i16(T_KP),
                w.i16(T_KPP),
                view_king(kings, v),
                &acc.list[v][..n],
            );
        }
    }

    /// KP + KPP change of view `v` when the conditions in `changes` (slot, old, new) change and the
    /// other slots stay, computed on the list before it is modified.
    pub(super) fn view_delta(
        w: &Weights,
        acc: &BonanzaAcc,
        v: usize,
        changes: &[(usize, Option<Cond>, Option<Cond>)],
    ) -> i32 {
        let k = view_king(acc.kings, v);
        let view_black = v == 0;
        let kp = w.i16(T_KP);
        let kpp = w.i16(T_KPP);
        let mut d = 0i32;
        let bp = |c: Option<Cond>| c.map(|c| c.bp(view_black) as usize);
        if !kp.is_empty() {
            let row = &kp[k * FE..(k + 1) * FE];
            for &(_, old, new) in changes {
                if let Some(o) = bp(old) {
                    d -= row[o] as i32;
                }
                if let Some(n) = bp(new) {
                    d += row[n] as i32;
                }
            }
        }
        if kpp.is_empty() {
            return d;
        }
        let base = k * FE * FE;
        let row = |x: usize| &kpp[base + x * FE..base + (x + 1) * FE];
        let mut changed = 0u64;
        for &(s, _, _) in changes {
            changed |= 1u64 << s;
        }
        let list = &acc.list[v][..acc.n as usize];
        for &(_, old, new) in changes {
            if let Some(o) = bp(old) {
                let r = row(o);
                for (u, &lu) in list.iter().enumerate() {
                    if changed & (1u64 << u) == 0 {
                        d -= r[lu as usize] as i32;
                    }
                }
            }
            if let Some(n) = bp(new) {
                let r = row(n);
                for (u, &lu) in list.iter().enumerate() {
                    if changed & (1u64 << u) == 0 {
                        d += r[lu as usize] as i32;
                    }
                }
            }
        }
        for (i, &(_, oi, ni)) in changes.iter().enumerate() {
            for &(_, oj, nj) in &changes[..i] {
                if let (Some(a), Some(b)) = (bp(oi), bp(oj)) {
                    d -= row(a)[b] as i32;
                }
                if let (Some(a), Some(b)) = (bp(ni), bp(nj)) {
                    d += row(a)[b] as i32;
                }
            }
        }
        d
    }

    /// Writes the changed conditions into the list (new values, appended and removed slots).
    pub(super) fn apply_changes(
        acc: &mut BonanzaAcc,
        changes: &[(usize, Option<Cond>, Option<Cond>)],
    ) {
        let mut removed = None;
        for &(s, old, new) in changes {
            match new {
                Some(c) => {
                    acc.list[0][s] = c.bp(true);
                    acc.list[1][s] = c.bp(false);
                    if let Some(Cond::Board { sq, .. }) = old {
                        if acc.slot_of_sq[sq as usize] == s as u8 {
                            acc.slot_of_sq[sq as usize] = NONE;
                        }
                    }
                    if let Cond::Board { sq, .. } = c {
                        acc.sq_of_slot[s] = sq;
                        acc.slot_of_sq[sq as usize] = s as u8;
                    }
                    if s == acc.n as usize {
                        acc.n += 1;
                    }
                }
                None => removed = Some(s),
            }
        }
        if let Some(t) = removed {
            // Swap-remove: the last slot moves into the hole. The captured piece's square already
            // belongs to the capturing piece, so it is not cleared here.
            let last = acc.n as usize - 1;
            if t != last {
                acc.list[0][t] = acc.list[0][last];
                acc.list[1][t] = acc.list[1][last];
                let sq = acc.sq_of_slot[last];
                acc.sq_of_slot[t] = sq;
                if sq != NONE {
                    acc.slot_of_sq[sq as usize] = t as u8;
                }
            }
            acc.sq_of_slot[last] = NONE;
            acc.n -= 1;
        }
    }

    pub(super) fn update_acc(
        w: &Weights,
        parent: &Board,
        mv: Move,
        child: &Board,
        acc: &mut BonanzaAcc,
    ) {
        let c = parent.side_to_move();
        let black = is_black(c);
        let sign = if black { 1 } else { -1 };
        let mat = w.i32(T_MATERIAL);
        let kkp = w.i16(T_KKP);
        let mut changes: [(usize, Option<Cond>, Option<Cond>); 3] = [(0, None, None); 3];
        let mut nc = 0;
        let mut king_move = false;
        match mv {
            Move::Drop { piece, to } => {
                let hp = piece as usize;
                let n = parent.hand(c)[hp];
                let hs = hand_slot(black, hp);
                let hp8 = hp as u8;
                changes[0] = (
                    hs,
                    Some(Cond::Hand { black, hp: hp8, n }),
                    Some(Cond::Hand {
                        black,
                        hp: hp8,
                        n: n.saturating_sub(1),
                    }),
                );
                changes[1] = (acc.n as usize, None, Cond::board(c, piece, to));
                nc = 2;
            }
            Move::BoardMove {
                from,
                to,
                promotion,
            } => {
                let Some(p) = parent.piece_on(from) else {
                    return Self::refresh_acc(w, child, acc);
                };
                if let Some(q) = parent.piece_on(to) {
                    let t = acc.slot_of_sq[bsq(to) as usize] as usize;
                    changes[nc] = (t, Cond::board(!c, q, to), None);
                    let hq = q.unpromote();
                    let hp = hq as usize;
                    let n = parent.hand(c)[hp];
                    let hp8 = hp as u8;
                    changes[nc + 1] = (
                        hand_slot(black, hp),
                        Some(Cond::Hand { black, hp: hp8, n }),
                        Some(Cond::Hand {
                            black,
                            hp: hp8,
                            n: n + 1,
                        }),
                    );
                    nc += 2;
                    let gain = mat[material_index(q)].wrapping_add(mat[material_index(hq)]);
                    acc.material = acc.material.wrapping_add(sign * gain);
                }
                if p == Piece::King {
                    king_move = true;
                } else {
                    let np = if promotion { p.promote() } else { p };
                    let s = acc.slot_of_sq[bsq(from) as usize] as usize;
                    changes[nc] = (s, Cond::board(c, p, from), Cond::board(c, np, to));
                    nc += 1;
                    if promotion {
                        let gain = mat[material_index(np)].wrapping_sub(mat[material_index(p)]);
                        acc.material = acc.material.wrapping_add(sign * gain);
                    }
                }
            }
        }
        let changes = &changes[..nc];
        if changes.iter().any(|&(s, _, _)| s >= MAX_LIST) {
            // A slot map out of step with the board cannot happen for legal moves; recover anyway.
            return Self::refresh_acc(w, child, acc);
        }
        if king_move {
            let mover = if black { 0 } else { 1 };
            let other = 1 - mover;
            acc.kpp[other] += Self::view_delta(w, acc, other, changes);
            Self::apply_changes(acc, changes);
            acc.kings = [bsq(child.king(Color::Black)), bsq(child.king(Color::White))];
            let n = acc.n as usize;
            acc.kpp[mover] = kpp_sum(
                w.i16(T_KP),
                w.i16(T_KPP),
                view_king(acc.kings, mover),
                &acc.list[mover][..n],
            );
            // KKP depends on both kings for every piece: recompute.
            acc.kkp = 0;
            if !kkp.is_empty() {
                let mut conds = Vec::with_capacity(MAX_LIST);
                let kings = conditions(child, &mut conds);
                acc.kkp = conds.iter().map(|&cd| kkp_term(kkp, kings, cd)).sum();
            }
            return;
        }
        for v in 0..2 {
            acc.kpp[v] += Self::view_delta(w, acc, v, changes);
        }
        for &(_, old, new) in changes {
            if let Some(o) = old {
                acc.kkp -= kkp_term(kkp, acc.kings, o);
            }
            if let Some(n) = new {
                acc.kkp += kkp_term(kkp, acc.kings, n);
            }
        }
        Self::apply_changes(acc, changes);
    }

    /// The raw sums of a position from black's view: (material, KP, KKP, KPP), from scratch.
    pub fn raw_terms(w: &Weights, b: &Board) -> [i64; 4] {
        let mut conds = Vec::with_capacity(MAX_LIST);
        let kings = conditions(b, &mut conds);
        let mut acc = BonanzaAcc::default();
        Self::refresh_acc(w, b, &mut acc);
        let (kp, kpp) = (w.i16(T_KP), w.i16(T_KPP));
        let mut t = [acc.material as i64, 0, acc.kkp as i64, 0];
        for v in 0..2 {
            let sign = if v == 0 { 1 } else { -1 };
            let k = view_king(kings, v);
            let list: Vec<u16> = conds.iter().map(|c| c.bp(v == 0)).collect();
            t[1] += sign * kpp_sum(kp, &[], k, &list) as i64;
            t[3] += sign * kpp_sum(&[], kpp, k, &list) as i64;
        }
        t
    }
}
