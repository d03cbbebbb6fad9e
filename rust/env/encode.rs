//! The feature planes of one seat's view and the fixed action space (see
//! `docs/encoding.md`, whose version is [`ENCODING_VERSION`]).
//!
//! [`encode`] writes an [`Observation`] as [`N_PLANES`] planes of 34 `u8` columns (one
//! column per tile kind) into a caller's buffer; [`legal_mask`] writes the legal actions
//! as [`N_ACTIONS`] flags. Both read only the observation, which holds what its seat may
//! see and nothing more, so the planes cannot leak a hidden tile.

use crate::hand::{Meld, MeldKind};
use crate::round::{Action, DiscardEntry, Observation, Phase, HIDDEN};
use crate::tile::{self, Counts, Tile};

/// The version of the layout below; bumped whenever a plane or an action index moves.
pub const ENCODING_VERSION: u32 = 1;

/// Columns per plane: one per tile kind.
pub const N_COLS: usize = tile::N_KINDS;

/// Planes of the observer's own tiles: the concealed hand as four thresholds and the
/// drawn tile.
const OWN: usize = 5;
/// Planes per seat block (see [`seat_plane`]).
pub const SEAT_PLANES: usize = 16;
/// First plane of the global block.
const GLOBAL: usize = OWN + 4 * SEAT_PLANES;

/// Global planes, numbered from the first plane of the global block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum GlobalPlane {
    /// Copies of each kind visible to everyone (discards and exposed melds), 0-4.
    Visible = 0,
    /// The table's latest discard (one-hot).
    LastDiscard,
    /// The tile under claim, in a claim or robbing window (one-hot).
    ClaimTile,
    /// 1 everywhere in a claim window.
    ClaimWindow,
    /// 1 everywhere in a robbing window.
    RobWindow,
    /// The observer's seat wind (one-hot on its wind tile, columns 27-30).
    SeatWind,
    /// The prevalent wind (one-hot on its wind tile).
    PrevalentWind,
    /// Tiles left in the wall, in every column (0-144).
    WallRemaining,
    /// Discards made so far, in every column.
    DiscardCount,
    /// Huainan: the 宝 (one-hot); all zero in other rule sets.
    Bao,
    /// Huainan: the indicator turned up for the 宝 (one-hot).
    BaoIndicator,
    /// Huainan: the observer's 宝 tiles that came from the wall, in every column.
    BaoDrawn,
    /// Huainan: the observer's 宝 tiles discarded (飞宝), in every column.
    BaoDiscarded,
    /// Huainan: 1 everywhere while the observer's hand is in the 宝吊头 state.
    BaoDiaoTou,
    /// Huainan: the observer's declined wins in the 宝吊头 state, in every column.
    BaoPasses,
    /// Huainan: 1 everywhere under the passed-win lock (no win on another's tile).
    PassedWinLock,
    /// 1 everywhere when the observer must decide now (its mask is not empty).
    ToAct,
}

const N_GLOBAL: usize = GlobalPlane::ToAct as usize + 1;

/// Planes of the encoding.
pub const N_PLANES: usize = GLOBAL + N_GLOBAL;
/// Bytes of one encoded observation (`N_PLANES * 34`).
pub const OBS_LEN: usize = N_PLANES * N_COLS;

/// Planes of a seat block, each seat seen from the observer: block `r` (0-3) describes the
/// seat `r` places after the observer counter-clockwise (0: the observer, 1: its right,
/// 2: across, 3: its left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum SeatPlane {
    /// Tiles in the seat's chows, per kind (0-4).
    Chows = 0,
    /// The seat's pungs (1 on the tile).
    Pungs,
    /// The seat's exposed kongs, claimed or added (1 on the tile).
    Kongs,
    /// The seat's concealed kongs whose tile the observer sees (its own; everyone's
    /// once the hand is over).
    ConcealedKongs,
    /// Where each claimed meld came from: on the meld's tile (a chow's lowest), 1 + the
    /// position of the seat it was claimed from relative to the observer (1-4); 0 where
    /// no claimed meld is.
    MeldSource,
    /// The seat's discards per kind (0-4).
    Discards,
    /// The seat's discards that were claimed, per kind.
    Claimed,
    /// Recency: 1 on the kind of the seat's latest discard, 2 on its previous one's kind,
    /// and so on (a kind discarded twice shows its latest); capped at 255, 0 if never
    /// discarded.
    Recency,
    /// The discard that declared ready (classic 报听), one-hot.
    ReadyDiscard,
    /// Concealed kongs whose tile is hidden from the observer, in every column.
    HiddenKongs,
    /// Flowers set aside, in every column.
    Flowers,
    /// Concealed tiles held, in every column.
    HandSize,
    /// 1 everywhere once the seat declared ready.
    Ready,
    /// 1 everywhere while the seat is barred from winning (a penalised false win).
    Barred,
    /// The seat's match score before the hand, bucketed: `clamp(score / 8 + 128, 0, 255)`
    /// (rounded toward minus infinity), in every column.
    Score,
    /// 1 everywhere if the seat is the dealer.
    Dealer,
}

/// The index of plane `p` of the block of the seat `rel` places after the observer.
#[inline]
pub const fn seat_plane(rel: usize, p: SeatPlane) -> usize {
    OWN + rel * SEAT_PLANES + p as usize
}

/// The index of global plane `p`.
#[inline]
pub const fn global_plane(p: GlobalPlane) -> usize {
    GLOBAL + p as usize
}

/// The score bucket of [`SeatPlane::Score`].
#[inline]
pub fn score_bucket(score: i32) -> u8 {
    (score.div_euclid(8) + 128).clamp(0, 255) as u8
}

/// The planes of seat `s` that hold one value in every column, with their values.
#[inline]
fn seat_values(obs: &Observation, s: u8) -> [(SeatPlane, u8); 6] {
    let su = s as usize;
    [
        (SeatPlane::Flowers, obs.n_flowers[su]),
        (SeatPlane::HandSize, obs.hand_sizes[su]),
        (SeatPlane::Ready, obs.ready[su] as u8),
        (SeatPlane::Barred, obs.barred[su] as u8),
        (SeatPlane::Score, score_bucket(obs.scores[su])),
        (SeatPlane::Dealer, (s == obs.dealer) as u8),
    ]
}

/// The table's planes that hold one value in every column, with their values (the 宝
/// counters are 0 without a 宝).
#[inline]
fn global_values(obs: &Observation) -> [(GlobalPlane, u8); 10] {
    let b = obs.ruleset_view.bao().map(|v| v.state).unwrap_or_default();
    [
        (GlobalPlane::ClaimWindow, (obs.phase == Phase::Claim) as u8),
        (GlobalPlane::RobWindow, (obs.phase == Phase::RobKong) as u8),
        (GlobalPlane::WallRemaining, obs.wall_remaining),
        (GlobalPlane::DiscardCount, obs.n_discards),
        (GlobalPlane::BaoDrawn, b.bao_drawn),
        (GlobalPlane::BaoDiscarded, b.bao_discarded),
        (GlobalPlane::BaoDiaoTou, b.in_bdt as u8),
        (GlobalPlane::BaoPasses, b.passes),
        (GlobalPlane::PassedWinLock, b.guo_hu as u8),
        (GlobalPlane::ToAct, (!obs.legal.is_empty()) as u8),
    ]
}

#[inline]
fn fill(buf: &mut [u8], plane: usize, v: u8) {
    buf[plane * N_COLS..(plane + 1) * N_COLS].fill(v);
}

#[inline]
fn set(buf: &mut [u8], plane: usize, t: Tile, v: u8) {
    if (t as usize) < N_COLS {
        buf[plane * N_COLS + t as usize] = v;
    }
}

#[inline]
fn add(buf: &mut [u8], plane: usize, t: Tile, v: u8) {
    if (t as usize) < N_COLS {
        let x = &mut buf[plane * N_COLS + t as usize];
        *x = x.saturating_add(v);
    }
}

/// Writes the planes of `obs` into `out` (`N_PLANES * 34` bytes, plane after plane);
/// every byte is written. Fails on a buffer of another length.
pub fn encode(obs: &Observation, out: &mut [u8]) -> crate::MjResult<()> {
    if out.len() != OBS_LEN {
        return Err(crate::MjError::rule(format!(
            "an observation takes {OBS_LEN} bytes ({N_PLANES} planes of {N_COLS}), got {}",
            out.len()
        )));
    }
    out.fill(0);
    let me = obs.seat & 3;
    let rel = |s: u8| ((s + 4 - me) % 4) as usize;
    for (t, &n) in obs.hand.iter().enumerate() {
        for k in 0..n.min(4) as usize {
            out[k * N_COLS + t] = 1;
        }
    }
    if let Some(t) = obs.drawn {
        set(out, 4, t, 1);
    }
    for s in 0..4u8 {
        let r = rel(s);
        let block = seat_plane(r, SeatPlane::Chows) * N_COLS;
        let hidden = write_melds(&mut out[block..block + SEAT_PLANES * N_COLS], obs, s);
        fill(out, seat_plane(r, SeatPlane::HiddenKongs), hidden);
        for (plane, v) in seat_values(obs, s) {
            fill(out, seat_plane(r, plane), v);
        }
    }
    let discards = obs.discards();
    let mut since = [0u8; 4];
    for d in discards.iter().rev() {
        let r = rel(d.seat);
        since[r] = since[r].saturating_add(1);
        add(out, seat_plane(r, SeatPlane::Discards), d.tile, 1);
        if d.claimed {
            add(out, seat_plane(r, SeatPlane::Claimed), d.tile, 1);
        }
        let at = seat_plane(r, SeatPlane::Recency) * N_COLS + d.tile as usize;
        if (d.tile as usize) < N_COLS && out[at] == 0 {
            out[at] = since[r];
        }
        if d.ready {
            set(out, seat_plane(r, SeatPlane::ReadyDiscard), d.tile, 1);
        }
    }
    let g = global_plane;
    out[g(GlobalPlane::Visible) * N_COLS..(g(GlobalPlane::Visible) + 1) * N_COLS]
        .copy_from_slice(&obs.visible);
    if let Some(d) = discards.last() {
        set(out, g(GlobalPlane::LastDiscard), d.tile, 1);
    }
    if let Some((_, t)) = obs.claim {
        set(out, g(GlobalPlane::ClaimTile), t, 1);
    }
    set(out, g(GlobalPlane::SeatWind), 27 + obs.seat_wind(), 1);
    set(
        out,
        g(GlobalPlane::PrevalentWind),
        27 + (obs.prevalent_wind & 3),
        1,
    );
    if let Some(v) = obs.ruleset_view.bao() {
        set(out, g(GlobalPlane::Bao), v.bao, 1);
        set(out, g(GlobalPlane::BaoIndicator), v.indicator, 1);
    }
    for (plane, v) in global_values(obs) {
        fill(out, g(plane), v);
    }
    Ok(())
}

/// A seat's melds as last encoded: the melds, where each came from, how many.
type MeldKey = ([Meld; 4], [u8; 4], u8);

/// Writes the meld planes of seat `s` from `obs` into `block`, the seat's block (its
/// planes from [`SeatPlane::Chows`], indexed by [`SeatPlane`]), clearing what was there;
/// returns the value of its [`SeatPlane::HiddenKongs`] plane.
fn write_melds(block: &mut [u8], obs: &Observation, s: u8) -> u8 {
    let rel = |x: u8| ((x + 4 - obs.seat) % 4) as usize;
    block[..(SeatPlane::MeldSource as usize + 1) * N_COLS].fill(0);
    let mut hidden = 0u8;
    for (i, m) in obs.melds_of(s).iter().enumerate() {
        let from = obs.meld_from[s as usize][i];
        let (plane, claimed) = match m.kind {
            MeldKind::Chow => {
                for t in m.tile..m.tile.saturating_add(3) {
                    add(block, SeatPlane::Chows as usize, t, 1);
                }
                (None, true)
            }
            MeldKind::Pung => (Some(SeatPlane::Pungs), true),
            MeldKind::Kong => (Some(SeatPlane::Kongs), from != s),
            MeldKind::ConcealedKong => {
                if m.tile == HIDDEN {
                    hidden += 1;
                }
                (Some(SeatPlane::ConcealedKongs), false)
            }
        };
        if let Some(p) = plane {
            set(block, p as usize, m.tile, 1);
        }
        if claimed && from != s {
            set(
                block,
                SeatPlane::MeldSource as usize,
                m.tile,
                1 + rel(from) as u8,
            );
        }
    }
    hidden
}

/// Writes the four threshold planes of `hand` (plane `k` is 1 where `hand` holds more
/// than `k` copies) into `out` (`4 * 34` bytes), eight columns at a time: a count `c`
/// (at most 4) plus `127 - k` reaches 128, bit 7 of its byte, exactly when `c > k`, and
/// no byte carries into the next.
#[inline]
fn hand_planes(hand: &Counts, out: &mut [u8]) {
    const LOW: u64 = 0x0101_0101_0101_0101;
    for (k, row) in out.chunks_exact_mut(N_COLS).enumerate() {
        let bias = LOW * (127 - k as u64);
        for (o, h) in row.chunks_exact_mut(8).zip(hand.chunks_exact(8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(h);
            let bits = ((u64::from_le_bytes(w) + bias) >> 7) & LOW;
            o.copy_from_slice(&bits.to_le_bytes());
        }
        for t in N_COLS / 8 * 8..N_COLS {
            row[t] = (hand[t] > k as u8) as u8;
        }
    }
}

/// Clears a one-hot plane and sets column `t` (when `t` is a tile kind).
#[inline]
fn one_hot(buf: &mut [u8], plane: usize, t: Option<Tile>) {
    fill(buf, plane, 0);
    if let Some(t) = t {
        set(buf, plane, t, 1);
    }
}

/// Planes at the head of a seat block that an [`Encoder`] keeps (the meld and discard
/// planes, [`SeatPlane::Chows`] to [`SeatPlane::ReadyDiscard`]): the ones that sum up the
/// hand so far rather than read off the observation at once.
const KEPT: usize = SeatPlane::ReadyDiscard as usize + 1;

/// The planes of one seat, written at each of its decisions from what it kept of the
/// previous one, for an environment that encodes the same seat at every decision of a
/// hand.
///
/// An encoder keeps, per seat block, only the planes that sum up the hand so far (the
/// meld planes, rewritten when the seat's melds changed, and the discard planes, into
/// which the discards made since the last update are folded one by one: the recency
/// plane of the discarder ages by one, the new kind goes to the front), about 1.2 kB.
/// [`Encoder::update`] folds in what changed and writes the whole row: the kept planes
/// copied, the rest (own tiles, one-hot and one-value planes) written from the
/// observation. The row is always byte for byte that of [`encode`] (tested at every
/// decision of many hands of every rule set). Call [`Encoder::invalidate`] when a new hand
/// starts: the next update then starts from scratch. A change of seat, or discards that
/// do not continue the ones already folded in, also starts from scratch.
#[derive(Clone)]
pub struct Encoder {
    /// Per seat block (by position from the observer), its first [`KEPT`] planes.
    blocks: [[u8; KEPT * N_COLS]; 4],
    /// Per seat block, its [`SeatPlane::HiddenKongs`] value.
    hidden: [u8; 4],
    valid: bool,
    seat: u8,
    /// Discards folded in so far, and the last of them as it was then.
    n_discards: u8,
    last: DiscardEntry,
    melds: [Option<MeldKey>; 4],
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder::new()
    }
}

impl Encoder {
    /// An encoder whose first update starts from scratch.
    pub fn new() -> Encoder {
        Encoder {
            blocks: [[0; KEPT * N_COLS]; 4],
            hidden: [0; 4],
            valid: false,
            seat: 0,
            n_discards: 0,
            last: DiscardEntry::default(),
            melds: [None; 4],
        }
    }

    /// Forgets what it kept: the next update starts from scratch (call it at a new hand).
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Folds `obs` into what the encoder keeps and writes its planes into `out`
    /// (`OBS_LEN` bytes, every one written: the bytes [`encode`] writes for `obs`). Fails
    /// on a buffer of another length.
    pub fn update(&mut self, obs: &Observation, out: &mut [u8]) -> crate::MjResult<()> {
        if out.len() != OBS_LEN {
            return Err(crate::MjError::rule(format!(
                "an observation takes {OBS_LEN} bytes, got {}",
                out.len()
            )));
        }
        self.fold(obs);
        let me = obs.seat & 3;
        hand_planes(&obs.hand, &mut out[..4 * N_COLS]);
        one_hot(out, 4, obs.drawn);
        for r in 0..4 {
            let s = (me + r as u8) & 3;
            let block = seat_plane(r, SeatPlane::Chows) * N_COLS;
            out[block..block + KEPT * N_COLS].copy_from_slice(&self.blocks[r]);
            fill(out, seat_plane(r, SeatPlane::HiddenKongs), self.hidden[r]);
            for (plane, v) in seat_values(obs, s) {
                fill(out, seat_plane(r, plane), v);
            }
        }
        let g = global_plane;
        let n = obs.n_discards as usize;
        out[g(GlobalPlane::Visible) * N_COLS..(g(GlobalPlane::Visible) + 1) * N_COLS]
            .copy_from_slice(&obs.visible);
        one_hot(
            out,
            g(GlobalPlane::LastDiscard),
            n.checked_sub(1).map(|i| obs.discards[i].tile),
        );
        one_hot(out, g(GlobalPlane::ClaimTile), obs.claim.map(|(_, t)| t));
        one_hot(out, g(GlobalPlane::SeatWind), Some(27 + obs.seat_wind()));
        one_hot(
            out,
            g(GlobalPlane::PrevalentWind),
            Some(27 + (obs.prevalent_wind & 3)),
        );
        let bao = obs.ruleset_view.bao();
        one_hot(out, g(GlobalPlane::Bao), bao.map(|v| v.bao));
        one_hot(out, g(GlobalPlane::BaoIndicator), bao.map(|v| v.indicator));
        for (plane, v) in global_values(obs) {
            fill(out, g(plane), v);
        }
        Ok(())
    }

    /// Brings the kept planes up to `obs`: the melds that changed, the discards made since.
    fn fold(&mut self, obs: &Observation) {
        let n = obs.n_discards as usize;
        let folded = self.n_discards as usize;
        let continues = self.valid
            && obs.seat == self.seat
            && folded <= n
            && (folded == 0 || {
                let d = obs.discards[folded - 1];
                d.seat == self.last.seat && d.tile == self.last.tile
            });
        if !continues {
            self.blocks = [[0; KEPT * N_COLS]; 4];
            self.hidden = [0; 4];
            self.valid = true;
            self.seat = obs.seat;
            self.n_discards = 0;
            self.last = DiscardEntry::default();
            self.melds = [None; 4];
        }
        let me = obs.seat & 3;
        let rel = |s: u8| ((s + 4 - me) % 4) as usize;
        for s in 0..4u8 {
            let su = s as usize;
            // The whole arrays, past the seat's melds too: a difference there only
            // rewrites planes that were right already, and the comparison is a few words.
            let key = (obs.melds[su], obs.meld_from[su], obs.n_melds[su]);
            if self.melds[su] != Some(key) {
                let r = rel(s);
                self.hidden[r] = write_melds(&mut self.blocks[r], obs, s);
                self.melds[su] = Some(key);
            }
        }
        // The last discard folded in may have been claimed since (a claim only ever
        // takes the latest discard).
        let folded = self.n_discards as usize;
        if folded > 0 && !self.last.claimed && obs.discards[folded - 1].claimed {
            let d = obs.discards[folded - 1];
            add(
                &mut self.blocks[rel(d.seat)],
                SeatPlane::Claimed as usize,
                d.tile,
                1,
            );
        }
        for d in &obs.discards[folded..n] {
            let b = &mut self.blocks[rel(d.seat)];
            add(b, SeatPlane::Discards as usize, d.tile, 1);
            if d.claimed {
                add(b, SeatPlane::Claimed as usize, d.tile, 1);
            }
            let rec = SeatPlane::Recency as usize * N_COLS;
            for x in &mut b[rec..rec + N_COLS] {
                *x = x.saturating_add((*x != 0) as u8);
            }
            set(b, SeatPlane::Recency as usize, d.tile, 1);
            if d.ready {
                set(b, SeatPlane::ReadyDiscard as usize, d.tile, 1);
            }
        }
        self.n_discards = obs.n_discards;
        if n > 0 {
            self.last = obs.discards[n - 1];
        }
    }
}

// ---- the action space --------------------------------------------------------------------

/// First index of each action kind in the action space.
pub mod index {
    /// `Discard(t)`: `DISCARD + t`, 34 indices.
    pub const DISCARD: usize = 0;
    /// `Ready(t)` (discard `t` and declare ready): 34 indices.
    pub const READY: usize = 34;
    /// `ConcealedKong(t)`: 34 indices.
    pub const CONCEALED_KONG: usize = 68;
    /// `AddedKong(t)`: 34 indices.
    pub const ADDED_KONG: usize = 102;
    /// `Chow(low)`: `CHOW + 7 * suit + rank` for the lowest tile `9 * suit + rank`
    /// (rank 0-6), 21 indices.
    pub const CHOW: usize = 136;
    /// `Pung(t)`: 34 indices.
    pub const PUNG: usize = 157;
    /// `Kong(t)` (an exposed kong claimed on a discard): 34 indices.
    pub const KONG: usize = 191;
    /// `Win`.
    pub const WIN: usize = 225;
    /// `Pass`.
    pub const PASS: usize = 226;
}

/// Size of the action space.
pub const N_ACTIONS: usize = 227;

/// The index of `a` in the action space (`None` only for a tile no action names, which
/// [`Action::from_parts`] never builds).
pub fn action_index(a: Action) -> Option<usize> {
    let tile_at = |base: usize, t: Tile| ((t as usize) < N_COLS).then_some(base + t as usize);
    match a {
        Action::Discard(t) => tile_at(index::DISCARD, t),
        Action::Ready(t) => tile_at(index::READY, t),
        Action::ConcealedKong(t) => tile_at(index::CONCEALED_KONG, t),
        Action::AddedKong(t) => tile_at(index::ADDED_KONG, t),
        Action::Chow(t) => (tile::is_suited(t) && t % 9 <= 6)
            .then(|| index::CHOW + 7 * (t / 9) as usize + (t % 9) as usize),
        Action::Pung(t) => tile_at(index::PUNG, t),
        Action::Kong(t) => tile_at(index::KONG, t),
        Action::Win => Some(index::WIN),
        Action::Pass => Some(index::PASS),
    }
}

/// The action at index `i` of the action space (`None` past [`N_ACTIONS`]).
pub fn index_action(i: usize) -> Option<Action> {
    let t = |base: usize| (i - base) as Tile;
    Some(match i {
        _ if i < index::READY => Action::Discard(t(index::DISCARD)),
        _ if i < index::CONCEALED_KONG => Action::Ready(t(index::READY)),
        _ if i < index::ADDED_KONG => Action::ConcealedKong(t(index::CONCEALED_KONG)),
        _ if i < index::CHOW => Action::AddedKong(t(index::ADDED_KONG)),
        _ if i < index::PUNG => {
            let k = i - index::CHOW;
            Action::Chow((9 * (k / 7) + k % 7) as Tile)
        }
        _ if i < index::KONG => Action::Pung(t(index::PUNG)),
        _ if i < index::WIN => Action::Kong(t(index::KONG)),
        index::WIN => Action::Win,
        index::PASS => Action::Pass,
        _ => return None,
    })
}

/// Writes the mask of `legal` into `out` (`N_ACTIONS` bytes): 1 at the index of each
/// legal action, 0 elsewhere. Fails on a buffer of another length.
pub fn legal_mask(legal: &[Action], out: &mut [u8]) -> crate::MjResult<()> {
    if out.len() != N_ACTIONS {
        return Err(crate::MjError::rule(format!(
            "an action mask takes {N_ACTIONS} bytes, got {}",
            out.len()
        )));
    }
    out.fill(0);
    for &a in legal {
        if let Some(i) = action_index(a) {
            out[i] = 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, RoundView};
    use crate::round::Round;
    use crate::rules::Rules;

    #[test]
    fn every_index_maps_to_an_action_and_back() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..N_ACTIONS {
            let a = index_action(i).expect("an action");
            assert_eq!(action_index(a), Some(i), "{a:?}");
            assert!(Action::from_parts(a.kind(), a.tile()).is_ok(), "{a:?}");
            seen.insert(a);
        }
        assert_eq!(seen.len(), N_ACTIONS);
        assert_eq!(index_action(N_ACTIONS), None);
        // Every action the round can build has an index.
        for code in 0..9 * 64u16 {
            if let Some(a) = Action::from_code(code) {
                assert!(action_index(a).is_some(), "{a:?}");
            }
        }
    }

    #[test]
    fn buffers_of_the_wrong_size_are_refused() {
        let r = Round::new(&Rules::named("gb").unwrap(), 1, 0, 0).unwrap();
        assert!(encode(&r.observe(0), &mut [0u8; OBS_LEN - 1]).is_err());
        assert!(legal_mask(&[], &mut [0u8; 3]).is_err());
    }

    /// Along whole hands of every rule set, the mask is the legal actions exactly and the
    /// planes match the observation they were written from.
    #[test]
    fn mask_and_planes_follow_the_round() {
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            let mut pols: [_; 4] = std::array::from_fn(|_| PolicyKind::Efficiency.build(&rules));
            let mut buf = vec![0u8; OBS_LEN];
            let mut mask = [0u8; N_ACTIONS];
            for seed in 0..6u64 {
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                while r.pending() != 0 {
                    for s in 0..4u8 {
                        let obs = r.observe(s);
                        encode(&obs, &mut buf).unwrap();
                        legal_mask(obs.legal.as_slice(), &mut mask).unwrap();
                        let want: Vec<usize> = r
                            .legal_actions(s)
                            .iter()
                            .map(|&a| action_index(a).unwrap())
                            .collect();
                        let got: Vec<usize> = (0..N_ACTIONS).filter(|&i| mask[i] == 1).collect();
                        let mut want_sorted = want.clone();
                        want_sorted.sort_unstable();
                        want_sorted.dedup();
                        assert_eq!(got, want_sorted);
                        let hand = &r.seat(s).hand;
                        for t in 0..34 {
                            let n = (0..4).filter(|&k| buf[k * N_COLS + t] == 1).count();
                            assert_eq!(n, hand[t].min(4) as usize);
                        }
                        let vis = global_plane(GlobalPlane::Visible) * N_COLS;
                        assert_eq!(&buf[vis..vis + 34], &r.visible()[..]);
                    }
                    let s = r.pending().trailing_zeros() as u8;
                    let a = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, a).unwrap();
                }
            }
        }
    }

    /// The planes an [`Encoder`] keeps equal the planes [`encode`] writes from scratch,
    /// byte for byte, whether it is updated after every action of the table or only at the
    /// seat's own decisions (several discards, claims and kongs folded in at once), through
    /// whole hands of every rule set, random and efficient play, to the end of each hand.
    #[test]
    fn the_incremental_planes_equal_a_fresh_encoding() {
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            let mut every: [Encoder; 4] = Default::default();
            let mut own: [Encoder; 4] = Default::default();
            let mut fresh = vec![0u8; OBS_LEN];
            let mut got = vec![0u8; OBS_LEN];
            let mut compared = 0;
            for seed in 0..24u64 {
                let policy = if seed % 2 == 0 {
                    PolicyKind::Random
                } else {
                    PolicyKind::Efficiency
                };
                let mut pols: [_; 4] = std::array::from_fn(|_| policy.build(&rules));
                let mut r =
                    Round::new(&rules, seed, (seed % 4) as u8, (seed / 4 % 4) as u8).unwrap();
                r.set_scores([seed as i32 * 37 - 400, 5, -9, 1100]);
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                for e in every.iter_mut().chain(own.iter_mut()) {
                    e.invalidate();
                }
                loop {
                    for s in 0..4u8 {
                        let obs = r.observe(s);
                        encode(&obs, &mut fresh).unwrap();
                        // Garbage first: the update writes every byte.
                        got.fill(0xa5);
                        every[s as usize].update(&obs, &mut got).unwrap();
                        assert!(got == fresh, "{kind:?} seed {seed} seat {s}");
                        if !obs.legal.is_empty() || r.is_over() {
                            got.fill(0x5a);
                            own[s as usize].update(&obs, &mut got).unwrap();
                            assert!(got == fresh, "{kind:?} seed {seed} seat {s} (own)");
                            compared += 1;
                        }
                    }
                    if r.is_over() {
                        break;
                    }
                    let s = r.pending().trailing_zeros() as u8;
                    let a = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, a).unwrap();
                }
            }
            assert!(compared > 1000, "{kind:?}: {compared}");
        }
    }

    /// A new hand, a new seat or discards that do not continue the folded ones start the
    /// planes afresh even without [`Encoder::invalidate`].
    #[test]
    fn an_encoder_starts_afresh_when_the_table_is_another() {
        let rules = Rules::named("gb").unwrap();
        let mut pol = PolicyKind::Random.build(&rules);
        pol.begin_hand(3);
        let mut r = Round::new(&rules, 3, 0, 0).unwrap();
        for _ in 0..40 {
            let s = r.pending().trailing_zeros() as u8;
            let a = pol.act(&RoundView { round: &r, seat: s });
            r.apply(s, a).unwrap();
        }
        let mut enc = Encoder::new();
        let (mut fresh, mut got) = (vec![0u8; OBS_LEN], vec![0u8; OBS_LEN]);
        enc.update(&r.observe(0), &mut got).unwrap();
        let other = Round::new(&rules, 4, 1, 0).unwrap();
        for (round, seat) in [(&other, 0), (&r, 2), (&r, 2)] {
            let obs = round.observe(seat);
            encode(&obs, &mut fresh).unwrap();
            enc.update(&obs, &mut got).unwrap();
            assert!(got == fresh);
        }
        assert!(enc.update(&r.observe(2), &mut got[1..]).is_err());
    }

    /// The planes of a seat are the same in any round that shows it the same: a round
    /// rebuilt from its view with the other hands and the wall drawn afresh.
    #[test]
    fn hidden_tiles_do_not_reach_the_planes() {
        for kind in ["classic", "gb"] {
            let rules = Rules::named(kind).unwrap();
            let mut pols: [_; 4] = std::array::from_fn(|_| PolicyKind::Efficiency.build(&rules));
            let (mut a, mut b) = (vec![0u8; OBS_LEN], vec![0u8; OBS_LEN]);
            let mut rng = crate::wall::Rng::new(5);
            let mut compared = 0;
            for seed in 0..4u64 {
                let mut r = Round::new(&rules, seed, 0, 1).unwrap();
                r.set_scores([10, -3, 0, -7]);
                while r.pending() != 0 {
                    for s in 0..4u8 {
                        let obs = r.observe(s);
                        if r.pending() >> s & 1 == 0 {
                            // Only seats with a decision: from a seat without one, the rebuilt
                            // round asks the others' answers again with their sampled hands
                            // and may already stand past a claim window.
                            continue;
                        }
                        let other = Round::determinize(&rules, &obs, &mut rng).unwrap();
                        let mut seen = other.observe(s);
                        // The rebuilt round carries no match scores: give it the same.
                        seen.scores = obs.scores;
                        assert_ne!(
                            (0..4).map(|x| other.seat(x).hand).collect::<Vec<_>>(),
                            (0..4).map(|x| r.seat(x).hand).collect::<Vec<_>>(),
                        );
                        encode(&obs, &mut a).unwrap();
                        encode(&seen, &mut b).unwrap();
                        let diff: Vec<(usize, u8, u8)> = (0..OBS_LEN)
                            .filter(|&i| a[i] != b[i])
                            .map(|i| (i / N_COLS, a[i], b[i]))
                            .take(6)
                            .collect();
                        assert!(diff.is_empty(), "{kind:?} seat {s}: {diff:?}");
                        compared += 1;
                    }
                    let s = r.pending().trailing_zeros() as u8;
                    let act = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, act).unwrap();
                }
            }
            assert!(compared > 100);
        }
    }
}
