//! What a seat can do: [`Action`] and the fixed-capacity [`ActionList`] the round keeps
//! per seat (no allocation per step).

use crate::hand::{Meld, MeldKind};
use crate::shanten::swar;
use crate::tile::{self, Counts, Tile};

/// One decision of one seat.
///
/// On its own turn a seat discards (optionally declaring ready), wins by self-draw or
/// declares a kong. When another seat discards (or adds a kong that may be robbed) it wins,
/// claims the tile, or passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Discard this tile.
    Discard(Tile),
    /// Discard this tile and declare ready (报听, classic): the hand locks.
    Ready(Tile),
    /// Win: by self-draw on one's own turn, on the discard in a claim window, or by
    /// robbing the added kong in a robbing window.
    Win,
    /// Declare a concealed kong (暗杠) of this tile.
    ConcealedKong(Tile),
    /// Add this tile to one's exposed pung (补杠).
    AddedKong(Tile),
    /// Claim the discard for a chow whose lowest tile is given (only from the left).
    Chow(Tile),
    /// Claim the discard (this tile) for a pung.
    Pung(Tile),
    /// Claim the discard (this tile) for an exposed kong (直杠).
    Kong(Tile),
    /// Decline to claim.
    Pass,
}

impl Action {
    /// The action's kind as a name: `discard`, `ready`, `win`, `concealed_kong`,
    /// `added_kong`, `chow`, `pung`, `kong`, `pass`.
    pub fn kind(self) -> &'static str {
        match self {
            Action::Discard(_) => "discard",
            Action::Ready(_) => "ready",
            Action::Win => "win",
            Action::ConcealedKong(_) => "concealed_kong",
            Action::AddedKong(_) => "added_kong",
            Action::Chow(_) => "chow",
            Action::Pung(_) => "pung",
            Action::Kong(_) => "kong",
            Action::Pass => "pass",
        }
    }

    /// The tile the action names, if any (a chow's lowest tile).
    pub fn tile(self) -> Option<Tile> {
        match self {
            Action::Discard(t)
            | Action::Ready(t)
            | Action::ConcealedKong(t)
            | Action::AddedKong(t)
            | Action::Chow(t)
            | Action::Pung(t)
            | Action::Kong(t) => Some(t),
            Action::Win | Action::Pass => None,
        }
    }

    /// Builds an action from its kind name and tile, checking that the tile fits.
    pub fn from_parts(kind: &str, tile: Option<Tile>) -> crate::MjResult<Action> {
        let need = |t: Option<Tile>| -> crate::MjResult<Tile> {
            match t {
                Some(t) if (t as usize) < tile::N_KINDS => Ok(t),
                Some(t) => Err(crate::MjError::action(format!(
                    "action {kind:?} needs a non-flower tile, got {}",
                    if tile::is_valid(t) {
                        tile::name(t)
                    } else {
                        format!("code {t}")
                    }
                ))),
                None => Err(crate::MjError::action(format!(
                    "action {kind:?} needs a tile"
                ))),
            }
        };
        let no_tile = |a: Action| -> crate::MjResult<Action> {
            match tile {
                None => Ok(a),
                Some(_) => Err(crate::MjError::action(format!(
                    "action {kind:?} takes no tile"
                ))),
            }
        };
        match kind {
            "discard" => Ok(Action::Discard(need(tile)?)),
            "ready" => Ok(Action::Ready(need(tile)?)),
            "win" => no_tile(Action::Win),
            "concealed_kong" => Ok(Action::ConcealedKong(need(tile)?)),
            "added_kong" => Ok(Action::AddedKong(need(tile)?)),
            "chow" => {
                let t = need(tile)?;
                if !tile::is_suited(t) || t % 9 > 6 {
                    return Err(crate::MjError::action(format!(
                        "a chow is named by its lowest tile (1-7 of a suit), got {}",
                        tile::name(t)
                    )));
                }
                Ok(Action::Chow(t))
            }
            "pung" => Ok(Action::Pung(need(tile)?)),
            "kong" => Ok(Action::Kong(need(tile)?)),
            "pass" => no_tile(Action::Pass),
            _ => Err(crate::MjError::action(format!(
                "unknown action kind {kind:?} (expected discard, ready, win, concealed_kong, \
                 added_kong, chow, pung, kong or pass)"
            ))),
        }
    }

    /// A compact code, unique per action: `kind * 64 + tile` (tile 0 when none). Useful
    /// as an array index or a numpy value.
    pub fn code(self) -> u16 {
        let k: u16 = match self {
            Action::Discard(_) => 0,
            Action::Ready(_) => 1,
            Action::Win => 2,
            Action::ConcealedKong(_) => 3,
            Action::AddedKong(_) => 4,
            Action::Chow(_) => 5,
            Action::Pung(_) => 6,
            Action::Kong(_) => 7,
            Action::Pass => 8,
        };
        k * 64 + self.tile().unwrap_or(0) as u16
    }

    /// The action of a [`code`](Action::code); `None` for a code no action has.
    pub fn from_code(code: u16) -> Option<Action> {
        let t = (code % 64) as Tile;
        let ok = (t as usize) < tile::N_KINDS;
        Some(match code / 64 {
            0 if ok => Action::Discard(t),
            1 if ok => Action::Ready(t),
            2 if t == 0 => Action::Win,
            3 if ok => Action::ConcealedKong(t),
            4 if ok => Action::AddedKong(t),
            5 if ok && tile::is_suited(t) && t % 9 <= 6 => Action::Chow(t),
            6 if ok => Action::Pung(t),
            7 if ok => Action::Kong(t),
            8 if t == 0 => Action::Pass,
            _ => return None,
        })
    }

    /// Short text: `discard 5m`, `chow 345m`, `win`.
    pub fn describe(self) -> String {
        match self {
            Action::Chow(t) => format!("chow {}", tile::format(&[t, t + 1, t + 2])),
            a => match a.tile() {
                Some(t) => format!("{} {}", a.kind(), tile::name(t)),
                None => a.kind().to_string(),
            },
        }
    }
}

/// What claiming a discard does to the claimer's tiles: the meld it makes and the tiles it
/// takes from the concealed hand (the discard itself joins the meld). The round applies
/// exactly this; a policy weighing a claim reads the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// The meld the claim makes.
    pub meld: Meld,
    /// The kinds taken from the hand with their counts; the first `n_taken` are used.
    taken: [(Tile, u8); 2],
    n_taken: u8,
}

impl Claim {
    /// The claim `action` (a chow, pung or kong) makes of the discard `discard`; `None` for
    /// any other action, a pung or kong of another tile, or a chow without the discard.
    #[inline]
    pub fn of(action: Action, discard: Tile) -> Option<Claim> {
        let (kind, tile, taken, n_taken) = match action {
            Action::Pung(t) if t == discard => (MeldKind::Pung, t, [(t, 2), (t, 0)], 1),
            Action::Kong(t) if t == discard => (MeldKind::Kong, t, [(t, 3), (t, 0)], 1),
            Action::Chow(low)
                if tile::is_suited(low) && low % 9 <= 6 && (low..low + 3).contains(&discard) =>
            {
                let mut others = (low..low + 3).filter(|&x| x != discard);
                let a = others.next().unwrap_or(low);
                let b = others.next().unwrap_or(low);
                (MeldKind::Chow, low, [(a, 1), (b, 1)], 2)
            }
            _ => return None,
        };
        Some(Claim {
            meld: Meld { kind, tile },
            taken,
            n_taken,
        })
    }

    /// The kinds the claim takes from the hand, with how many copies of each.
    #[inline]
    pub fn taken(&self) -> &[(Tile, u8)] {
        &self.taken[..self.n_taken as usize]
    }

    /// `hand` without the tiles the claim takes (a count already short stays at 0).
    #[inline]
    pub fn take_from(&self, hand: &mut Counts) {
        for &(t, n) in self.taken() {
            hand[t as usize] = hand[t as usize].saturating_sub(n);
        }
    }
}

/// The `r`-th lowest set bit of `kinds` (which has more than `r`): the byte that holds it
/// is found from the running counts of set bits per byte, compared with `r` all at once
/// (no loop whose length depends on `r`), and the bit within it from a table.
#[inline]
pub(crate) fn nth_kind(kinds: u64, r: usize) -> Tile {
    // `SELECT[b][j]`: the position of the `j`-th set bit of the byte `b`.
    const SELECT: [[u8; 8]; 256] = {
        let mut t = [[0u8; 8]; 256];
        let mut b = 0;
        while b < 256 {
            let (mut j, mut bit) = (0, 0);
            while bit < 8 {
                if b >> bit & 1 == 1 {
                    t[b][j] = bit as u8;
                    j += 1;
                }
                bit += 1;
            }
            b += 1;
        }
        t
    };
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Set bits per byte, then byte `i` the set bits of bytes 0 to `i` (at most 64: the
    // sums stay within their bytes).
    let x = kinds - ((kinds >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    let upto = ((x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(ONES);
    // The bytes whose running count is at most `r` lie before the bit: a byte's high bit
    // stays set in `128 + r - count` exactly when the count is at most `r`.
    let r = r.min(127);
    let at_most = ((r as u64 * ONES) | HIGH).wrapping_sub(upto) & HIGH;
    let k = (swar::byte_sum(at_most >> 7) as usize).min(7);
    let before = ((upto << 8) >> (8 * k)) as usize & 0xFF;
    let b = (kinds >> (8 * k)) as usize & 0xFF;
    8 * k as Tile + SELECT[b][r.saturating_sub(before) & 7]
}

/// Capacity of an [`ActionList`]: 14 discards, 14 ready-discards, kongs and a win fit.
pub const MAX_ACTIONS: usize = 40;

/// A legal action drawn uniformly from `legal` with `rng`: the one at `rng.below(n)` of
/// `n` > 1 actions (`rng` is not used otherwise), the only one, or [`Action::Pass`] when
/// there is none. What a random policy plays, whichever way its table lists the actions.
#[inline]
pub fn uniform_choice(legal: &[Action], rng: &mut crate::wall::Rng) -> Action {
    match legal.len() {
        0 => Action::Pass,
        1 => legal[0],
        n => legal[rng.below(n as u64) as usize],
    }
}

/// The legal actions of one seat, in a fixed array (no allocation).
#[derive(Debug, Clone, Copy)]
pub struct ActionList {
    items: [Action; MAX_ACTIONS],
    len: u8,
    /// Bit `t` set when `Discard(t)` is in the list (membership without a scan).
    discards: u64,
}

impl Default for ActionList {
    #[inline(always)]
    fn default() -> Self {
        // Copied from a constant, which compiles to a few wide moves rather than one store
        // per slot.
        const EMPTY: ActionList = ActionList {
            items: [Action::Pass; MAX_ACTIONS],
            len: 0,
            discards: 0,
        };
        EMPTY
    }
}

impl ActionList {
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.discards = 0;
    }
    /// Appends an action (ignored past the capacity, which legal play never reaches).
    #[inline]
    pub fn push(&mut self, a: Action) {
        if (self.len as usize) < MAX_ACTIONS {
            self.items[self.len as usize] = a;
            self.len += 1;
            if let Action::Discard(t) = a {
                self.discards |= 1u64.checked_shl(t as u32).unwrap_or(0);
            }
        }
    }
    /// Appends `Discard(t)` for every kind `t` of the bit set `kinds`, lowest first
    /// (ignored past the capacity).
    #[inline]
    pub fn push_discards(&mut self, mut kinds: u64) {
        let all = kinds;
        let mut n = self.len as usize;
        // The common case, every kind fits: one capacity check for all of them.
        let k = kinds.count_ones() as usize;
        if let Some(slots) = self.items.get_mut(n..n + k) {
            for slot in slots {
                *slot = Action::Discard(kinds.trailing_zeros() as Tile);
                kinds &= kinds - 1;
            }
            self.len = (n + k) as u8;
            self.discards |= all;
            return;
        }
        while kinds != 0 && n < MAX_ACTIONS {
            self.items[n] = Action::Discard(kinds.trailing_zeros() as Tile);
            kinds &= kinds - 1;
            n += 1;
        }
        self.len = n as u8;
        // The kinds left in `kinds` did not fit.
        self.discards |= all & !kinds;
    }
    /// Marks `Discard(t)` for every kind `t` of `kinds` as in the list without writing
    /// the actions: the round lists a turn's discards this way and writes them, at the
    /// position the list had then, only when the whole list is asked for
    /// ([`ActionList::with_discards_at`]). Membership ([`ActionList::contains`]) holds at
    /// once.
    #[inline]
    pub(crate) fn defer_discards(&mut self, kinds: u64) {
        self.discards |= kinds;
    }
    /// This list with `Discard(t)` for every kind of `kinds` written at position `at`
    /// (lowest kind first), as [`ActionList::push_discards`] would have written them
    /// there before the later actions were pushed.
    pub(crate) fn with_discards_at(&self, at: usize, kinds: u64) -> ActionList {
        let mut full = ActionList::default();
        let at = at.min(self.len as usize);
        for &a in &self.items[..at] {
            full.push(a);
        }
        full.push_discards(kinds);
        for &a in &self.items[at..self.len as usize] {
            full.push(a);
        }
        full
    }
    /// The action at `i` of [`ActionList::with_discards_at`]`(at, kinds)` without building
    /// it (`k` is the number of kinds in `kinds`); `None` past its end.
    #[inline]
    pub(crate) fn nth_with_discards_at(
        &self,
        at: usize,
        kinds: u64,
        k: usize,
        i: usize,
    ) -> Option<Action> {
        let len = self.len as usize;
        debug_assert_eq!(k, kinds.count_ones() as usize);
        if len + k > MAX_ACTIONS || at > len {
            // Past the capacity some actions are dropped: read the built list.
            return self.with_discards_at(at, kinds).as_slice().get(i).copied();
        }
        (i < len + k).then(|| self.nth_in_room(at, kinds, k, i))
    }
    /// The action at `i` < `len + k` of [`ActionList::with_discards_at`]`(at, kinds)`
    /// when the `k` kinds fit beside the list (`len + k` at most [`MAX_ACTIONS`], `at` at
    /// most `len`): the actions before `at`, the discards, the actions after them.
    #[inline]
    pub(crate) fn nth_in_room(&self, at: usize, kinds: u64, k: usize, i: usize) -> Action {
        if i < at {
            self.items[i]
        } else if i < at + k {
            Action::Discard(nth_kind(kinds, i - at))
        } else {
            self.items[i - k]
        }
    }
    /// The actions.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
    /// Number of actions.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// True when there is none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// True if `a` is in the list.
    #[inline]
    pub fn contains(&self, a: Action) -> bool {
        match a {
            Action::Discard(t) => self.discards >> (t & 63) & 1 == 1 && t < 64,
            _ => self.as_slice().contains(&a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_takes_the_tiles_beside_the_discard() {
        let mut hand = [0u8; 34];
        hand[3] = 1;
        hand[5] = 1;
        hand[4] = 2;
        // A chow of 456m on the discard 5m takes 4m and 6m.
        let c = Claim::of(Action::Chow(3), 4).unwrap();
        assert_eq!(
            c.meld,
            Meld {
                kind: MeldKind::Chow,
                tile: 3
            }
        );
        assert_eq!(c.taken(), &[(3, 1), (5, 1)]);
        let mut h = hand;
        c.take_from(&mut h);
        assert_eq!((h[3], h[4], h[5]), (0, 2, 0));
        // A pung takes two copies, a kong three; only of the discard itself.
        let p = Claim::of(Action::Pung(4), 4).unwrap();
        assert_eq!(p.taken(), &[(4, 2)]);
        assert_eq!(Claim::of(Action::Kong(4), 4).unwrap().taken(), &[(4, 3)]);
        assert!(Claim::of(Action::Pung(4), 5).is_none());
        // A chow must hold the discard and stay inside one suit.
        assert!(Claim::of(Action::Chow(3), 7).is_none());
        assert!(Claim::of(Action::Chow(7), 8).is_none());
        assert!(Claim::of(Action::Chow(27), 28).is_none());
        assert!(Claim::of(Action::Discard(4), 4).is_none());
    }

    #[test]
    fn the_nth_kind_is_the_nth_set_bit() {
        let mut rng = crate::wall::Rng::new(0x2545_F491);
        for _ in 0..20_000 {
            let kinds = rng.below(1 << 34) & rng.below(1 << 34) | 1 << rng.below(34);
            let bits: Vec<Tile> = (0..34).filter(|&t| kinds >> t & 1 == 1).collect();
            for (r, &t) in bits.iter().enumerate() {
                assert_eq!(nth_kind(kinds, r), t, "{kinds:#x} {r}");
            }
        }
    }

    #[test]
    fn codes_round_trip() {
        let all = [
            Action::Discard(33),
            Action::Ready(0),
            Action::Win,
            Action::ConcealedKong(5),
            Action::AddedKong(27),
            Action::Chow(24),
            Action::Pung(31),
            Action::Kong(9),
            Action::Pass,
        ];
        for a in all {
            assert_eq!(Action::from_code(a.code()), Some(a));
            assert_eq!(Action::from_parts(a.kind(), a.tile()).unwrap(), a);
        }
        assert_eq!(Action::from_code(5 * 64 + 25), None);
        assert!(Action::from_parts("chow", Some(7)).is_err());
        assert!(Action::from_parts("win", Some(7)).is_err());
        assert!(Action::from_parts("discard", Some(35))
            .unwrap_err()
            .message()
            .contains("2f"));
        assert!(Action::from_parts("riichi", None)
            .unwrap_err()
            .message()
            .contains("riichi"));
        assert_eq!(Action::Chow(2).describe(), "chow 345m");
    }

    #[test]
    fn membership_of_discards_matches_the_list() {
        let mut l = ActionList::default();
        l.push(Action::Win);
        l.push_discards(1 << 3 | 1 << 20 | 1 << 33);
        l.push(Action::Discard(7));
        l.push(Action::Ready(9));
        for t in 0..=255u8 {
            let d = Action::Discard(t);
            assert_eq!(l.contains(d), l.as_slice().contains(&d), "{t}");
        }
        assert!(l.contains(Action::Ready(9)) && !l.contains(Action::Ready(3)));
        l.clear();
        assert!(!l.contains(Action::Discard(3)));
        let mut full = ActionList::default();
        for t in 0..MAX_ACTIONS as u8 + 5 {
            full.push(Action::Discard(t));
        }
        assert_eq!(full.len(), MAX_ACTIONS);
        assert!(!full.contains(Action::Discard(MAX_ACTIONS as u8 + 1)));
    }
}
