//! GB / classic fan evaluation: the fan catalog (data), the decomposition search and the
//! combination principles.
//!
//! [`evaluate`] scores a winning hand. It reproduces PyMahjongGB 1.4.0 (the
//! ChineseOfficialMahjongHelper calculator) fan for fan under the default `gb` options,
//! validates what the reference silently accepts, and applies the minimum. It never
//! allocates and never panics: every input, however malformed, gives a result or an
//! [`MjError`].
//!
//! Module map: [`catalog`] (the one fan table), [`divide`] (decompositions and waits),
//! [`table`] (the count per fan that every detector fills), [`score`] (detectors for one
//! decomposition), [`principles`] (set relations and exclusions), [`special`] (special
//! forms), [`validate`] (input checks and flag rules).

pub mod catalog;
pub mod divide;
pub mod principles;
pub mod rtile;
pub mod score;
pub mod special;
pub mod table;
pub mod validate;

use crate::error::{MjError, MjResult};
use crate::hand::{Meld, MeldKind};
use crate::tile::{Counts, Tile};
pub use catalog::{Fan, FanInfo, CATALOG, N_FANS};
use divide::{Divisions, Pack, CHOW, KONG, PUNG};
use rtile::{Kinds, RTable};
use score::Ctx;
use table::Table;

crate::option_group! {
    /// Scoring options. The `mcr_*` switches select the 2006 MCR reading where the
    /// reference calculator (PyMahjongGB 1.4.0) reads the rules differently; all are off
    /// in `gb`, which scores exactly as the reference does.
    pub struct FanOptions {
        /// The minimum fan total a win needs (8 in gb; see docs/rules/classic.md §7.2 for classic).
        pub min_fan: u8 = 8 => Fans in 1..=88,
        /// Count flowers toward the minimum (Botzone's Python environment); MCR does not.
        pub flowers_count_toward_min: bool = false => Fans,
        /// Most flowers a hand may hold (8 in gb, 0 in classic, which has no flowers).
        pub max_flowers: u8 = 8 => Fans in 0..=8,
        /// The 1-fan 听牌 for a declared-ready win (classic 报听). Without it the rule set
        /// has no declared ready, and declaring it is an input error.
        pub ready_fan: bool = false => Fans,
        /// One concealed plus one melded kong scores 暗杠 2 + 明杠 1 (MCR) instead of the
        /// reference's 5-fan 明暗杠.
        pub mcr_separate_mixed_kongs: bool = false => Fans,
        /// 清幺九 also excludes 三同刻 (the rulebook's "不计同刻"); the reference keeps it.
        pub mcr_all_terminals_no_triple_pung: bool = false => Fans,
        /// A tile whose four copies the player already holds is not a wait when deciding
        /// whether the wait is unique (边张 / 嵌张 / 单钓); the reference counts it.
        pub mcr_exact_waits: bool = false => Fans,
        /// B-5: 边张 / 嵌张 / 单钓将 count when the winning tile also completes the knitted
        /// straight (组合龙), as PyMahjongGB 1.4.0 does; false follows Botzone's 2020
        /// calculator, which drops them.
        pub wait_fans_on_knitted_tile: bool = true => Fans,
        /// Flags that cannot all hold (robbing a kong of a tile the winner holds, a kong
        /// replacement without a kong, 和绝张 of a tile still in the hand, a robbed kong on
        /// the last discard) are silently dropped as the reference does, instead of raising
        /// `InvalidHandError`.
        pub correct_impossible_flags: bool = false => Fans,
    }
}

/// A winning hand to score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinInput {
    /// Concealed tiles WITHOUT the winning tile (13 - 3 * n_melds of them).
    pub hand: Counts,
    /// Declared melds; the first `n_melds` are used, the rest are ignored.
    pub melds: [Meld; 4],
    /// Number of declared melds (0-4).
    pub n_melds: u8,
    /// The winning tile (0-33).
    pub win_tile: Tile,
    /// Won on a self-drawn tile (else on a discard or a robbed kong).
    pub self_drawn: bool,
    /// The winning tile is the last copy (和绝张).
    pub fourth_tile: bool,
    /// Self-drawn: kong replacement (杠上开花); discard: robbing a kong (抢杠和).
    pub about_kong: bool,
    /// Self-drawn: last wall tile (妙手回春); discard: the last discard (海底捞月).
    pub wall_last: bool,
    /// Seat wind 0-3 = E S W N.
    pub seat_wind: u8,
    /// Prevalent wind 0-3 = E S W N.
    pub prevalent_wind: u8,
    /// Flower tiles held (gb: 0-8).
    pub flowers: u8,
    /// Declared ready (classic 报听).
    pub declared_ready: bool,
}

/// Filler for unused meld slots.
const NO_MELD: Meld = Meld {
    kind: MeldKind::Chow,
    tile: 0,
};

impl WinInput {
    /// A discard win with no flags, East seat and round, no flowers.
    pub fn new(hand: Counts, melds: &[Meld], win_tile: Tile) -> MjResult<Self> {
        if melds.len() > 4 {
            return Err(MjError::hand(format!(
                "{} melds given, at most 4",
                melds.len()
            )));
        }
        let mut m = [NO_MELD; 4];
        m[..melds.len()].copy_from_slice(melds);
        Ok(WinInput {
            hand,
            melds: m,
            n_melds: melds.len() as u8,
            win_tile,
            self_drawn: false,
            fourth_tile: false,
            about_kong: false,
            wall_last: false,
            seat_wind: 0,
            prevalent_wind: 0,
            flowers: 0,
            declared_ready: false,
        })
    }

    /// The declared melds in use.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..(self.n_melds as usize).min(4)]
    }
}

/// One fan of a result and how many times it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FanCount {
    /// The fan (see [`catalog`]).
    pub fan: Fan,
    /// Occurrences (e.g. 喜相逢 ×2, 花牌 ×3).
    pub count: u8,
}

/// Capacity of a [`FanList`]; no hand scores more distinct fans.
pub const MAX_FANS_PER_HAND: usize = 32;

/// A fixed-capacity list of fans (no allocation); derefs to `&[FanCount]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FanList {
    items: [FanCount; MAX_FANS_PER_HAND],
    len: u8,
}

impl FanList {
    fn from_table(t: &Table) -> Self {
        let mut items = [FanCount::default(); MAX_FANS_PER_HAND];
        let mut len = 0usize;
        for (fan, count) in t.iter() {
            if len < MAX_FANS_PER_HAND {
                items[len] = FanCount { fan, count };
                len += 1;
            }
        }
        FanList {
            items,
            len: len as u8,
        }
    }
}

impl std::ops::Deref for FanList {
    type Target = [FanCount];
    fn deref(&self) -> &[FanCount] {
        &self.items[..self.len as usize]
    }
}

/// The fans of a winning hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FanResult {
    /// Fans in catalog order (MCR number; 花牌 81, 明暗杠 82, 听牌 83), like the reference.
    pub fans: FanList,
    /// Total points, flowers included.
    pub total: u32,
    /// Total without 花牌.
    pub total_without_flowers: u32,
    /// The total (without flowers unless `flowers_count_toward_min`) reaches `min_fan`.
    pub meets_minimum: bool,
}

impl FanResult {
    /// Rebuilds a result from its fans, as `(id, count)` pairs in catalog order, and
    /// whether it met the rule set's minimum (a stored or pickled result). The totals follow
    /// from the fans. Fails on an unknown id, a count of 0, ids out of catalog order or more
    /// fans than a hand can score.
    pub fn from_fans(fans: &[(u8, u8)], meets_minimum: bool) -> MjResult<FanResult> {
        if fans.len() > MAX_FANS_PER_HAND {
            return Err(MjError::argument(format!(
                "a result holds at most {MAX_FANS_PER_HAND} fans, got {}",
                fans.len()
            )));
        }
        let mut list = FanList {
            items: [FanCount::default(); MAX_FANS_PER_HAND],
            len: 0,
        };
        let (mut total, mut flowers, mut last) = (0u32, 0u32, 0u8);
        for &(id, count) in fans {
            if !(1..N_FANS as u8).contains(&id) || id <= last {
                return Err(MjError::argument(format!(
                    "fan ids must be 1-{} in increasing order, got {id} after {last}",
                    N_FANS - 1
                )));
            }
            if count == 0 {
                return Err(MjError::argument(format!("fan {id} counts 0 times")));
            }
            let fan = Fan(id);
            let points = fan.points() * count as u32;
            total += points;
            if fan == catalog::FLOWER_TILES {
                flowers += points;
            }
            list.items[list.len as usize] = FanCount { fan, count };
            list.len += 1;
            last = id;
        }
        Ok(FanResult {
            fans: list,
            total,
            total_without_flowers: total - flowers,
            meets_minimum,
        })
    }

    /// How many times `fan` counts (0 if absent).
    pub fn count(&self, fan: Fan) -> u8 {
        self.fans
            .iter()
            .find(|f| f.fan == fan)
            .map_or(0, |f| f.count)
    }
}

/// Scores a winning hand under the scoring options `opts`.
///
/// Errors: [`MjError::InvalidHand`] for malformed input (see [`validate`]),
/// [`MjError::NotWinning`] when the tiles form no winning shape.
pub fn evaluate(input: &WinInput, opts: &FanOptions) -> MjResult<FanResult> {
    Win::new(input, opts)?.score(input.self_drawn)
}

/// The totals of a scored hand, without the list of its fans ([`Win::total`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinTotal {
    /// Total points, flowers included.
    pub total: u32,
    /// Total without 花牌.
    pub total_without_flowers: u32,
    /// The total (without flowers unless `flowers_count_toward_min`) reaches `min_fan`.
    pub meets_minimum: bool,
}

/// The declared melds laid out for scoring, and the concealed tiles before the win: what
/// every winning tile of one hand shares.
#[derive(Clone, Copy)]
struct Layout {
    fixed: [Pack; 4],
    n_fixed: usize,
    /// Tiles of the declared melds.
    fixed_table: RTable,
    /// Concealed tiles without the winning tile.
    standing: RTable,
    /// `standing` plus `fixed_table`: every tile held before the win.
    merged: RTable,
    /// The kinds in `merged`.
    kinds: Kinds,
    /// The kinds held four times in `merged`.
    fours: u8,
}

impl Layout {
    /// The layout of `input`'s melds and concealed tiles (checked by the caller).
    #[inline(always)]
    fn of(input: &WinInput) -> Layout {
        let mut layout = Layout {
            fixed: [Pack::default(); 4],
            n_fixed: 0,
            fixed_table: [0; 0x50],
            standing: [0; 0x50],
            merged: [0; 0x50],
            kinds: 0,
            fours: 0,
        };
        layout.fill(input);
        layout
    }

    /// Makes this the layout of `input` ([`Layout::of`]) in place, writing every field.
    #[inline(always)]
    fn fill(&mut self, input: &WinInput) {
        self.fill_tables(input);
        self.kinds = rtile::kinds_in(&self.merged);
        self.fours = rtile::fours_in(&self.merged);
    }

    /// [`Layout::fill`] of `input` whose copies of each kind (hand and melds, checked:
    /// at most 4) are `copies` ([`validate::HandHeld::all`]): the kinds are read from
    /// those, the same as from the merged table.
    #[inline(always)]
    fn fill_counted(&mut self, input: &WinInput, copies: &[u8; 34]) {
        self.fill_tables(input);
        (self.kinds, self.fours) = rtile::kinds_and_fours_of_codes(copies);
        debug_assert_eq!(self.kinds, rtile::kinds_in(&self.merged));
        debug_assert_eq!(self.fours, rtile::fours_in(&self.merged));
    }

    /// The tables of [`Layout::fill`]: every field but the kinds.
    #[inline(always)]
    fn fill_tables(&mut self, input: &WinInput) {
        let melds = input.melds();
        self.fixed = [Pack::default(); 4];
        self.fixed_table = [0; 0x50];
        let (fixed, fixed_table) = (&mut self.fixed, &mut self.fixed_table);
        for (i, m) in melds.iter().enumerate() {
            let r = rtile::from_code(m.tile);
            fixed[i] = match m.kind {
                MeldKind::Chow => {
                    fixed_table[r as usize] += 1;
                    fixed_table[r as usize + 1] += 1;
                    fixed_table[r as usize + 2] += 1;
                    Pack {
                        kind: CHOW,
                        tile: r + 1,
                        melded: true,
                    }
                }
                MeldKind::Pung => {
                    fixed_table[r as usize] += 3;
                    Pack {
                        kind: PUNG,
                        tile: r,
                        melded: true,
                    }
                }
                MeldKind::Kong | MeldKind::ConcealedKong => {
                    fixed_table[r as usize] += 4;
                    Pack {
                        kind: KONG,
                        tile: r,
                        melded: m.kind == MeldKind::Kong,
                    }
                }
            };
        }
        self.n_fixed = melds.len();
        let hand = &input.hand;
        let standing = &mut self.standing;
        *standing = [0; 0x50];
        // Tile codes: 万 0-8, 筒 9-17, 条 18-26, honors 27-33.
        standing[0x11..0x1A].copy_from_slice(&hand[0..9]);
        standing[0x31..0x3A].copy_from_slice(&hand[9..18]);
        standing[0x21..0x2A].copy_from_slice(&hand[18..27]);
        standing[0x41..0x48].copy_from_slice(&hand[27..34]);
        for ((m, s), f) in self
            .merged
            .iter_mut()
            .zip(self.standing.iter())
            .zip(self.fixed_table.iter())
        {
            *m = s + f;
        }
    }
}

/// Decompositions of one winning tile whose reading-independent fans a [`Win`] keeps for
/// its other reading (few hands have more).
const KEPT_DIVISIONS: usize = 4;

/// One winning hand scored as won on a discard and as won by self-draw, sharing the work
/// that does not depend on how the tile came: the checks, the tile tables, the
/// decompositions with the fans of their sets and tiles, and the unique-wait test.
/// [`Win::score`] always equals [`evaluate`] of the input with `self_drawn` set as asked.
#[derive(Clone)]
pub struct Win {
    input: WinInput,
    /// The scoring options (a few flags: kept by value, so that a win can be kept and
    /// laid out again for another hand).
    opts: FanOptions,
    held: validate::WinTileHeld,
    /// The hand before the win.
    layout: Layout,
    /// The concealed tiles with the winning tile.
    standing: RTable,
    /// Every kind of the hand, the winning tile's included.
    kinds: Kinds,
    /// The fans of the hand's tiles alone, once needed.
    tiles: Option<score::HandTiles>,
    win: rtile::RTile,
    /// The tiles completing the hand before the win ([`score::Ctx::wait`]), once found.
    wait: Option<u128>,
    /// The decompositions, once searched ([`Win::divided`]).
    divs: Divisions,
    /// `divs` holds this hand's decompositions.
    divided: bool,
    /// The reading-independent fans of the first decompositions, once scored: the other
    /// reading only finishes their count.
    kept: [score::DivisionFans; KEPT_DIVISIONS],
    /// Decompositions with their fans in `kept`.
    n_kept: usize,
    /// A reading found that the tiles form no special hand (seven pairs, thirteen
    /// orphans, the knitted forms, nine gates).
    no_special: bool,
}

impl Win {
    /// Checks `input` (with its own flags) and lays out its tiles.
    ///
    /// Errors: as [`evaluate`] for malformed input.
    pub fn new(input: &WinInput, opts: &FanOptions) -> MjResult<Win> {
        let held = validate::check_tiles(input, opts)?;
        validate::check_flags(input, opts, held)?;
        Ok(Win::laid_out(input, opts, held, Layout::of(input)))
    }

    /// The win of `input` (checked) from the layout of its tiles before the win.
    #[inline(always)]
    fn laid_out(
        input: &WinInput,
        opts: &FanOptions,
        held: validate::WinTileHeld,
        layout: Layout,
    ) -> Win {
        let win = rtile::from_code(input.win_tile);
        let mut standing = layout.standing;
        standing[win as usize] += 1;
        Win {
            input: *input,
            opts: opts.clone(),
            held,
            layout,
            standing,
            kinds: layout.kinds | 1 << win,
            tiles: None,
            win,
            wait: None,
            divs: Divisions::new(),
            divided: false,
            kept: [score::DivisionFans::default(); KEPT_DIVISIONS],
            n_kept: 0,
            no_special: false,
        }
    }

    /// Makes this the win of another hand (`input`, checked, with `held`, its copies of each
    /// kind `copies`) in place, equal to [`Win::laid_out`] of it: the storage of the
    /// decompositions and of their fans is kept, only their counts start over, so nothing
    /// large is moved or cleared.
    #[inline(always)]
    fn lay_out_again(
        &mut self,
        input: &WinInput,
        opts: &FanOptions,
        held: validate::WinTileHeld,
        copies: &[u8; 34],
    ) {
        self.layout.fill_counted(input, copies);
        let win = rtile::from_code(input.win_tile);
        self.standing = self.layout.standing;
        self.standing[win as usize] += 1;
        self.input = *input;
        self.opts.clone_from(opts);
        self.held = held;
        self.kinds = self.layout.kinds | 1 << win;
        self.tiles = None;
        self.win = win;
        self.wait = None;
        self.divs.len = 0;
        self.divided = false;
        self.n_kept = 0;
        self.no_special = false;
    }

    /// Makes this the win of the same hand before the win with another winning tile
    /// (`input`, checked), keeping the tiles completing the hand: the same for every
    /// winning tile of one hand.
    fn rewin(&mut self, input: &WinInput, held: validate::WinTileHeld) {
        let win = rtile::from_code(input.win_tile);
        self.input = *input;
        self.held = held;
        self.standing[self.win as usize] -= 1;
        self.standing[win as usize] += 1;
        self.kinds = self.layout.kinds | 1 << win;
        self.tiles = None;
        self.win = win;
        self.divided = false;
        self.no_special = false;
    }

    /// Scores the hand as won by self-draw (`true`) or on a discard (`false`), the other
    /// flags as given to [`Win::new`].
    ///
    /// Errors: as [`evaluate`] for that input.
    pub fn score(&mut self, self_drawn: bool) -> MjResult<FanResult> {
        let (best, t) = self.best::<true>(self_drawn)?;
        Ok(FanResult {
            fans: FanList::from_table(&best),
            total: t.total,
            total_without_flowers: t.total_without_flowers,
            meets_minimum: t.meets_minimum,
        })
    }

    /// The totals of [`Win::score`], without listing the fans.
    ///
    /// Errors: as [`Win::score`].
    pub fn total(&mut self, self_drawn: bool) -> MjResult<WinTotal> {
        Ok(self.best::<false>(self_drawn)?.1)
    }

    /// The fans of the best reading (when `LIST`; otherwise only the special form's, if
    /// any) and their totals (inlined, so that a caller reading the totals alone copies
    /// no table out).
    #[inline(always)]
    fn best<const LIST: bool>(&mut self, self_drawn: bool) -> MjResult<(Table, WinTotal)> {
        let input = WinInput {
            self_drawn,
            ..self.input
        };
        let opts = &self.opts;
        let flags = validate::check_flags(&input, opts, self.held)?;
        let fixed = &self.layout.fixed[..self.layout.n_fixed];
        let ctx = Ctx {
            fixed,
            fixed_table: &self.layout.fixed_table,
            standing: &self.standing,
            before: &self.layout.merged,
            kinds: self.kinds,
            fours: self.layout.fours + u8::from(self.layout.merged[self.win as usize] == 3),
            tiles: std::cell::Cell::new(self.tiles),
            win: self.win,
            flags,
            seat: input.seat_wind,
            prevalent: input.prevalent_wind,
            opts,
            wait: std::cell::Cell::new(self.wait),
        };

        let mut best = Table::default();
        let mut max = 0u32;
        let mut special = false;
        // Whether the tiles form a special hand does not depend on how the tile came;
        // a reading that found none tells the other reading (which leaves `best` empty).
        if !self.no_special {
            if fixed.is_empty() {
                special = special::score_special(&ctx, &mut best)
                    || special::score_knitted_straight(&ctx, &mut best)
                    || special::score_nine_gates(&ctx, &mut best);
            } else if fixed.len() == 1 {
                special = special::score_knitted_straight(&ctx, &mut best);
            }
        }
        self.no_special = !special;
        if special {
            max = table::points(&best);
        }
        let seven_pairs = best.get(catalog::SEVEN_PAIRS) != 0;
        if !special || seven_pairs {
            if !self.divided {
                let mut work = self.standing;
                divide::divide(&mut work, fixed, &mut self.divs);
                self.divided = true;
                self.n_kept = 0;
            }
            let divs = &self.divs;
            for (i, d) in divs.items[..divs.len].iter().enumerate() {
                let mut t = Table::default();
                if i < KEPT_DIVISIONS {
                    if i == self.n_kept {
                        self.kept[i] = score::DivisionFans::of(d, &ctx);
                        self.n_kept += 1;
                    }
                    score::score_reading(&self.kept[i], &ctx, &mut t);
                } else {
                    score::score_regular(d, &ctx, &mut t);
                }
                let p = table::points(&t);
                let prefer = t.get(catalog::PURE_TRIPLE_CHOW) == 1
                    || t.get(catalog::TRIPLE_PUNG) != 0
                    || seven_pairs;
                if p > max || (p == max && prefer) {
                    max = p;
                    if LIST {
                        best = t;
                    }
                }
            }
        }
        self.wait = ctx.wait.get();
        // Found by this reading when it had none (a found one is kept as it is).
        if self.tiles.is_none() {
            self.tiles = ctx.tiles.get();
        }
        if max == 0 {
            return Err(not_winning(&input));
        }
        // The best reading's points are `max`, and no reading counts Declared Ready, so
        // the total needs no pass over the table (a caller reading the totals alone then
        // keeps no table at all).
        debug_assert!(!LIST || max == table::points(&best));
        debug_assert_eq!(best.get(catalog::DECLARED_READY), 0);
        let ready = input.declared_ready && opts.ready_fan;
        let without = max
            + if ready {
                catalog::DECLARED_READY.points()
            } else {
                0
            };
        if LIST {
            if ready {
                best.put(catalog::DECLARED_READY, 1);
            }
            debug_assert_eq!(without, table::points(&best));
            best.put(catalog::FLOWER_TILES, input.flowers);
        }
        let total = without + input.flowers as u32;
        let counted = if opts.flowers_count_toward_min {
            total
        } else {
            without
        };
        Ok((
            best,
            WinTotal {
                total,
                total_without_flowers: without,
                meets_minimum: counted >= opts.min_fan as u32,
            },
        ))
    }
}

/// The error of a hand whose tiles form no winning shape (out of line: rare).
#[cold]
#[inline(never)]
fn not_winning(input: &WinInput) -> MjError {
    MjError::NotWinning(format!(
        "{} + {} does not form a winning hand",
        validate::describe_hand(input),
        crate::tile::name(input.win_tile)
    ))
}

/// A waiting hand whose winning tiles are scored one after another, sharing what does not
/// depend on the winning tile: the checks of the concealed tiles, melds, winds and
/// flowers, the layout of the tiles, and the tiles completing the hand (which decide the
/// unique-wait fans 边张 / 嵌张 / 单钓). [`Waiting::total`] of a tile `w` always equals
/// [`evaluate`] of the hand with `w` as its winning tile, error for error.
#[derive(Clone)]
pub struct Waiting {
    /// The hand with its melds, seat and flags; the winning tile is set per call.
    input: WinInput,
    held: validate::HandHeld,
    /// The win with the winning tile `current`, rebuilt in place for another tile; its
    /// tiles completing the hand, once found, serve every winning tile.
    win: Win,
    /// The winning tile `win` is laid out with, if any yet.
    current: Option<Tile>,
}

impl Waiting {
    /// Checks everything of `input` but its winning tile (ignored) and its win flags.
    ///
    /// Errors: when [`evaluate`] fails for this input whatever its winning tile.
    pub fn new(input: &WinInput, opts: &FanOptions) -> MjResult<Waiting> {
        let held = validate::check_hand(input, opts, None)?;
        Ok(Waiting {
            input: *input,
            held,
            win: Win::laid_out(input, opts, held.no_win_tile(), Layout::of(input)),
            current: None,
        })
    }

    /// Makes this the waiting hand of `input` under `opts` in place, equal to
    /// [`Waiting::new`] of them, reusing its storage (a waiting hand is large: laying out
    /// another hand in it moves and clears far less than making a new one).
    ///
    /// Errors: as [`Waiting::new`]; the waiting hand is then left as it was.
    pub fn lay_out(&mut self, input: &WinInput, opts: &FanOptions) -> MjResult<()> {
        let held = validate::check_hand(input, opts, None)?;
        self.input = *input;
        self.held = held;
        self.current = None;
        self.win
            .lay_out_again(input, opts, held.no_win_tile(), &held.all);
        Ok(())
    }

    /// Gives the waiting hand the kinds (bit = tile code 0-33) that complete its
    /// concealed tiles into sets and a pair, when the caller already knows them (such as
    /// the regular part of the hand's useful tiles, which the shanten engine gives beside
    /// them): the unique-wait fans
    /// (边张 / 嵌张 / 单钓) then read them, with the seven-pairs wait and the rule set's
    /// dead kinds applied here, instead of searching the hand's completing tiles. `kinds`
    /// must be exactly those tiles, or the unique-wait fans may be misread. Ignored when
    /// the concealed tiles hold a kind four times (a fifth copy is read as a wait by the
    /// reference, which no count of copies can tell).
    pub fn know_regular_waits(&mut self, kinds: u64) {
        // Eight concealed counts a word: the counts are checked (at most 4), so a four is
        // the only count with its third bit set, and `c >> 1` counts a count's pairs as
        // the reference's seven-pairs reading does (a triple one, a four two).
        let (mut fours, mut pairs) = (0u64, 0u64);
        for c in self.input.hand.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            let x = u64::from_le_bytes(b);
            fours |= x & 0x0404_0404_0404_0404;
            // The byte sum of at most 3 per byte, gathered in the top byte.
            pairs += ((x >> 1) & 0x0303_0303_0303_0303).wrapping_mul(0x0101_0101_0101_0101) >> 56;
        }
        if fours != 0 {
            return;
        }
        let layout = &self.win.layout;
        let mut set = rtile::kinds_of_codes(kinds);
        // The seven-pairs wait as the reference reads it ([`divide::seven_pairs_wait`]):
        // six pairs (a triple counts as one, a four as two) among the 13 concealed tiles,
        // and so exactly one kind held an odd number of times, which is the wait.
        if layout.n_fixed == 0 && pairs == 6 {
            if let Some(k) = self.input.hand.iter().position(|&c| c & 1 == 1) {
                set |= 1u128 << rtile::from_code(k as Tile);
            }
        }
        if self.win.opts.mcr_exact_waits {
            let mut live = set;
            while live != 0 {
                let x = live.trailing_zeros();
                live &= live - 1;
                if layout.merged[x as usize] >= 4 {
                    set &= !(1u128 << x);
                }
            }
        }
        self.win.wait = Some(set);
    }

    /// The totals of the hand won with `win_tile`, by self-draw or on a discard (the
    /// other flags as given to [`Waiting::new`]); scoring the same tile both ways in a
    /// row shares its decompositions.
    ///
    /// Errors: as [`evaluate`] for the hand with this winning tile (the messages of the
    /// tile checks may differ).
    pub fn total(&mut self, win_tile: Tile, self_drawn: bool) -> MjResult<WinTotal> {
        self.win_with(win_tile)?;
        // The flags are checked as the tile is scored, as `Win::score` does.
        self.win.total(self_drawn)
    }

    /// [`Waiting::total`], the decompositions of the complete hand read from `memo` under
    /// `key` when it holds them and kept there when they are searched. `key` must name the
    /// concealed tiles with `win_tile` and the declared melds exactly (as a packed hand
    /// and its melds do): the decompositions depend on nothing else, so hands of other
    /// waits that complete into the same tiles share them.
    pub(crate) fn total_remembering(
        &mut self,
        win_tile: Tile,
        self_drawn: bool,
        memo: &mut DivisionMemo,
        key: [u64; 3],
    ) -> MjResult<WinTotal> {
        self.win_with(win_tile)?;
        let i = memo.slot(key);
        let searched = self.win.divided;
        if !searched && memo.keys[i] == Some(key) {
            let (from, win) = (&memo.slots[i], &mut self.win);
            let n = from.divs.len;
            win.divs.items[..n].copy_from_slice(&from.divs.items[..n]);
            win.divs.len = n;
            win.divided = true;
            let n_fixed = win.layout.n_fixed;
            for (k, d) in win.kept[..from.n_kept].iter_mut().enumerate() {
                *d = from.kept[k].with_win(&from.divs.items[k], n_fixed, win.win);
            }
            win.n_kept = from.n_kept;
            if from.tiles.is_some() {
                win.tiles = from.tiles;
            }
        }
        let out = self.win.total(self_drawn);
        if !searched && self.win.divided && memo.keys[i] != Some(key) {
            let (win, to) = (&self.win, &mut memo.slots[i]);
            let n = win.divs.len;
            to.divs.items[..n].copy_from_slice(&win.divs.items[..n]);
            to.divs.len = n;
            to.kept[..win.n_kept].copy_from_slice(&win.kept[..win.n_kept]);
            to.n_kept = win.n_kept;
            to.tiles = win.tiles;
            memo.keys[i] = Some(key);
        }
        out
    }

    /// Whether the hand won with `win_tile` by self-draw surely misses the minimum, known
    /// from `on_discard`, its totals on a discard ([`Waiting::total`] of the same tile),
    /// without scoring it: the self-drawn total is at most the discard total plus
    /// [`Waiting::self_draw_gain`]. False whenever that bound does not settle it.
    pub fn self_draw_misses_minimum(&self, win_tile: Tile, on_discard: &WinTotal) -> bool {
        let opts = &self.win.opts;
        let counted = if opts.flowers_count_toward_min {
            on_discard.total
        } else {
            on_discard.total_without_flowers
        };
        self.self_draw_gain(win_tile)
            .is_some_and(|gain| counted + gain < opts.min_fan as u32)
    }

    /// A bound on how many points the hand won with `win_tile` gains by self-draw over
    /// the same tiles won on a discard (the other flags as given), read from the catalog;
    /// `None` when no small bound holds (a kong or last-tile flag, or a self-drawn tile
    /// that may complete a third concealed pung).
    ///
    /// Each decomposition (and special form) scores on the same tiles both ways, and the
    /// readings differ only in the fans of how the tile came ([`score::score_reading`],
    /// [`special`]); a struck fan strikes all the same ([`principles::apply_exclusions`]),
    /// so a fan added adds at most its points and a fan removed that strikes nothing gives
    /// none back. By self-draw:
    /// - 自摸 is added (1).
    /// - Without exposed melds, 不求人 replaces 门前清 and strikes 自摸 (4 - 2); where 门前清
    ///   is struck on a discard, 不求人 is struck as well (七对, 十三幺, the knitted forms,
    ///   九莲宝灯), except under 四暗刻, which leaves 自摸 alone (1).
    /// - With four exposed melds 自摸 replaces 全求人 (6), which no longer strikes the
    ///   unique wait (at most 1).
    /// - A concealed pung of the winning tile is no longer exposed by a discard: only when
    ///   two of its copies stand in the hand, and then one more concealed pung counts. With
    ///   at most two concealed pungs or kongs by self-draw that adds at most 双暗刻.
    ///
    /// The bound of a hand is the most any of its decompositions gains, so the best
    /// self-drawn reading totals at most the best discard reading plus it.
    pub fn self_draw_gain(&self, win_tile: Tile) -> Option<u32> {
        let input = &self.input;
        if input.about_kong || input.wall_last {
            return None;
        }
        let melds = input.melds();
        let concealed_kongs = melds
            .iter()
            .filter(|m| m.kind == MeldKind::ConcealedKong)
            .count() as u32;
        let exposed = melds.len() as u32 - concealed_kongs;
        let self_drawn = catalog::SELF_DRAWN.points();
        let mut gain = match exposed {
            0 => (catalog::FULLY_CONCEALED_HAND.points())
                .saturating_sub(catalog::CONCEALED_HAND.points())
                .max(self_drawn),
            4 => self_drawn + catalog::SINGLE_WAIT.points(),
            _ => self_drawn,
        };
        let hand = &input.hand;
        if hand.get(win_tile as usize).is_some_and(|&c| c >= 2) {
            // The concealed pungs or kongs by self-draw: the winning tile's, the other
            // kinds standing three times and the concealed kongs.
            let others = hand
                .iter()
                .enumerate()
                .filter(|&(k, &c)| k != win_tile as usize && c >= 3)
                .count() as u32;
            match 1 + others + concealed_kongs {
                1 => {}
                2 => gain += catalog::TWO_CONCEALED_PUNGS.points(),
                _ => return None,
            }
        }
        Some(gain)
    }

    /// Lays the win out with `win_tile` (kept when it already is).
    fn win_with(&mut self, win_tile: Tile) -> MjResult<()> {
        if self.current != Some(win_tile) {
            let w = win_tile;
            if w as usize >= crate::tile::N_CODES || crate::tile::is_flower(w) {
                return Err(validate::invalid(format_args!(
                    "winning tile code {w} is not a tile that can win"
                )));
            }
            if self.held.all[w as usize] >= 4 {
                return Err(validate::invalid(format_args!(
                    "a fifth copy of {} cannot win",
                    crate::tile::name(w)
                )));
            }
            let input = WinInput {
                win_tile: w,
                ..self.input
            };
            // Read from the waiting hand's copies, without copying them to add the tile.
            self.win.rewin(&input, self.held.before_win(&self.input, w));
            self.current = Some(w);
        }
        Ok(())
    }
}

/// Slots of a [`DivisionMemo`]: a slot is 1,040 bytes and its key 32, so a memo holds
/// about 1.1 MB, allocated once: enough that a complete hand reached by two waits is
/// mostly still remembered when the second one is scored.
const DIVISION_SLOTS: usize = 1024;

/// The decompositions of complete hands under their callers' keys
/// ([`Waiting::total_remembering`]), with what their first decompositions and their tiles
/// score whatever the winning tile, one hand a slot (a new hand takes the slot of an old
/// one): allocated once, a fixed size.
#[derive(Clone)]
pub(crate) struct DivisionMemo {
    keys: Box<[Option<[u64; 3]>]>,
    slots: Box<[RememberedWin]>,
}

/// One complete hand of a [`DivisionMemo`].
#[derive(Clone)]
struct RememberedWin {
    /// Its decompositions.
    divs: Divisions,
    /// The fans of the first `n_kept` of them ([`score::DivisionFans::with_win`] gives
    /// them for any winning tile).
    kept: [score::DivisionFans; KEPT_DIVISIONS],
    n_kept: usize,
    /// The fans of its tiles, when found.
    tiles: Option<score::HandTiles>,
}

impl DivisionMemo {
    /// An empty memo.
    pub(crate) fn new() -> DivisionMemo {
        DivisionMemo {
            keys: vec![None; DIVISION_SLOTS].into_boxed_slice(),
            slots: vec![
                RememberedWin {
                    divs: Divisions::new(),
                    kept: [score::DivisionFans::default(); KEPT_DIVISIONS],
                    n_kept: 0,
                    tiles: None,
                };
                DIVISION_SLOTS
            ]
            .into_boxed_slice(),
        }
    }

    /// Forgets every hand.
    pub(crate) fn clear(&mut self) {
        self.keys.fill(None);
    }

    /// The slot of `key`.
    fn slot(&self, key: [u64; 3]) -> usize {
        let m = (key[0] ^ key[2].rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ key[1].wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (m >> 40) as usize % DIVISION_SLOTS
    }
}

impl Default for DivisionMemo {
    fn default() -> Self {
        DivisionMemo::new()
    }
}

/// Scores under gb's scoring options (the defaults).
pub fn evaluate_gb(input: &WinInput) -> MjResult<FanResult> {
    static GB: std::sync::OnceLock<FanOptions> = std::sync::OnceLock::new();
    evaluate(input, GB.get_or_init(FanOptions::default))
}

#[cfg(test)]
mod tests;
