//! Ready hands checked against the fan minimum: which waits actually win.
//!
//! A ready hand whose waits all fall short of the minimum cannot win at all, and one whose
//! only scoring wait is a tile nobody has left is as good as dead. For a waiting hand
//! (`13 - 3k` tiles) [`scoring_waits`] scores every completing tile with the fan
//! evaluator, as a win on a discard and as a self-draw, and counts the unseen copies of
//! the waits that reach the minimum. The waits of one hand are scored together
//! ([`fan::Waiting`]): the checks of the hand and seat, the layout of its tiles and the
//! tiles completing it (for the unique-wait fans) are found once for all of them.

use super::memo::{self, FactsKey, HandKey};
use crate::fan::{self, WinInput};
use crate::hand::Meld;
use crate::rules::Rules;
use crate::shanten;
use crate::tile::Counts;

const NO_USED: Counts = [0; 34];

/// The seat facts the fan evaluator needs besides the tiles.
#[derive(Debug, Clone, Copy)]
pub struct WinContext {
    /// The seat's melds (the first `n_melds`).
    pub melds: [Meld; 4],
    /// How many melds.
    pub n_melds: u8,
    /// Seat wind 0-3.
    pub seat_wind: u8,
    /// Prevalent wind 0-3.
    pub prevalent_wind: u8,
    /// Flowers set aside.
    pub flowers: u8,
}

/// How a ready hand can win.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WaitValue {
    /// Unseen copies of the waits that reach the minimum on a discard.
    pub on_discard: u32,
    /// Unseen copies of the waits that reach it only by self-draw.
    pub self_draw_only: u32,
    /// Unseen copies of every completing tile (scoring or not).
    pub shape: u32,
    /// The best fan total of a scoring wait (on a discard, else by self-draw).
    pub best_fan: u32,
    /// The fan totals on a discard of the waits that reach the minimum on a discard, each
    /// times its unseen copies (their mean fan is this over [`WaitValue::on_discard`]).
    pub fan_on_discard: u32,
    /// The self-draw fan totals of the self-draw-only waits, each times its unseen copies.
    pub fan_self_draw_only: u32,
}

impl WaitValue {
    /// Scoring wait copies, a self-draw-only wait counted at a third.
    pub fn effective(&self) -> f32 {
        self.on_discard as f32 + self.self_draw_only as f32 / 3.0
    }
}

/// The waits of the waiting hand `hand` (13 - 3k tiles) that win under `rules`, counted
/// by `unseen` copies. All zero when the hand is not ready.
pub fn scoring_waits(hand: &Counts, ctx: &WinContext, rules: &Rules, unseen: &Counts) -> WaitValue {
    let mut out = WaitValue::default();
    let mut bits = shanten::waits(hand, &NO_USED, ctx.n_melds, 0);
    let mut scorer = None;
    while bits != 0 {
        let w = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out.shape += unseen[w] as u32;
        if unseen[w] == 0 {
            continue;
        }
        let scorer = scorer.get_or_insert_with(|| waiting(hand, ctx, rules));
        let Some(scorer) = scorer else {
            continue;
        };
        match classify(scorer, w, None) {
            Wins::OnDiscard(fan) => {
                out.on_discard += unseen[w] as u32;
                out.fan_on_discard += unseen[w] as u32 * fan;
                out.best_fan = out.best_fan.max(fan);
            }
            Wins::SelfDrawOnly(fan) => {
                out.self_draw_only += unseen[w] as u32;
                out.fan_self_draw_only += unseen[w] as u32 * fan;
                out.best_fan = out.best_fan.max(fan);
            }
            Wins::Never => {}
        }
    }
    out
}

/// How the wait `w` of a ready hand reaches the minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wins {
    /// On a discard (and so by self-draw), with this fan total on a discard.
    OnDiscard(u32),
    /// By self-draw only, with this fan total.
    SelfDrawOnly(u32),
    /// Not at all.
    Never,
}

/// The waiting hand `hand` with the seat's melds, winds and flowers, ready to score its
/// waits one by one; `None` when no tile can complete it into a valid win (a malformed
/// hand or seat).
fn waiting(hand: &Counts, ctx: &WinContext, rules: &Rules) -> Option<fan::Waiting> {
    fan::Waiting::new(&win_input(hand, ctx)?, &rules.fan).ok()
}

/// The fan evaluator's input of the waiting hand `hand` with the seat's melds, winds and
/// flowers (its winning tile left at 0); `None` for more than four melds.
fn win_input(hand: &Counts, ctx: &WinContext) -> Option<WinInput> {
    let melds = &ctx.melds[..ctx.n_melds.min(4) as usize];
    let mut input = WinInput::new(*hand, melds, 0).ok()?;
    input.seat_wind = ctx.seat_wind;
    input.prevalent_wind = ctx.prevalent_wind;
    input.flowers = ctx.flowers;
    Some(input)
}

/// Scores the wait `w` of a ready hand as a win on a discard, then, unless the discard
/// total shows that a self-draw cannot reach the minimum either
/// ([`fan::Waiting::self_draw_misses_minimum`]), as a self-draw (both readings share the
/// decompositions); with `divisions`, the decompositions of the
/// complete hand are kept there under its key ([`fan::Waiting::total_remembering`]).
fn classify(
    waiting: &mut fan::Waiting,
    w: usize,
    divisions: Option<(&mut fan::DivisionMemo, [u64; 3])>,
) -> Wins {
    let on_discard = match divisions {
        Some((memo, key)) => waiting.total_remembering(w as u8, false, memo, key),
        None => waiting.total(w as u8, false),
    };
    match on_discard {
        Ok(f) if f.meets_minimum => return Wins::OnDiscard(f.total),
        // Self-drawn, the same tiles gain too little to reach it.
        Ok(f) if waiting.self_draw_misses_minimum(w as u8, &f) => return Wins::Never,
        _ => {}
    }
    match waiting.total(w as u8, true) {
        Ok(f) if f.meets_minimum => Wins::SelfDrawOnly(f.total),
        _ => Wins::Never,
    }
}

/// Slots of a [`WaitMemo`].
const MEMO_SLOTS: usize = 2048;

/// One remembered waiting hand: two cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct MemoSlot {
    /// The hand and the seat facts ([`wait_key`]).
    key: FactsKey,
    /// The hand's waits.
    waits: u64,
    /// Waits already scored.
    scored: u64,
    /// Scored waits that reach the minimum on a discard.
    on_discard: u64,
    /// Scored waits that reach it by self-draw only.
    self_draw_only: u64,
    /// The fan total of each scoring wait, without the flowers.
    fans: [u16; 34],
}

const _: () = assert!(std::mem::size_of::<MemoSlot>() == 128);

impl memo::Slot for MemoSlot {
    type Key = FactsKey;
    const EMPTY: MemoSlot = MemoSlot {
        key: FactsKey {
            hand: HandKey::EMPTY,
            facts: 0,
        },
        waits: 0,
        scored: 0,
        on_discard: 0,
        self_draw_only: 0,
        fans: [0; 34],
    };
    fn key(&self) -> FactsKey {
        self.key
    }
    fn fresh(key: FactsKey) -> MemoSlot {
        MemoSlot { key, ..Self::EMPTY }
    }
}

/// A memo of [`scoring_waits`]: the waits of a waiting hand and how each one scores
/// depend on the hand and the seat facts, never on which copies are still unseen, so
/// they are computed once and then only recounted against the unseen copies of each
/// decision. It is allocated once (a fixed table) and starts over when nearly full;
/// [`WaitMemo::scoring_waits`] always equals [`scoring_waits`].
#[derive(Clone, Default)]
pub struct WaitMemo {
    table: memo::Table<MemoSlot, MEMO_SLOTS>,
    /// The decompositions of the complete hands of the scored waits: a complete hand is
    /// often reached by two waits (of the two hands that draw either of its tiles last).
    divisions: fan::DivisionMemo,
    /// The waiting hand last scored, laid out again for the next one
    /// ([`fan::Waiting::lay_out`]) rather than made anew.
    waiting: Option<fan::Waiting>,
}

impl WaitMemo {
    /// An empty memo.
    pub fn new() -> WaitMemo {
        WaitMemo::default()
    }

    /// Forgets every hand.
    pub fn clear(&mut self) {
        self.table.clear();
        self.divisions.clear();
    }

    /// [`scoring_waits`], remembered.
    pub fn scoring_waits(
        &mut self,
        hand: &Counts,
        ctx: &WinContext,
        rules: &Rules,
        unseen: &Counts,
    ) -> WaitValue {
        let key = wait_key(HandKey::of(hand, ctx.n_melds), ctx, rules);
        self.lookup(key, hand, ctx, rules, unseen, None, -1.0)
            .unwrap_or_default()
    }

    /// [`WaitMemo::scoring_waits`] of a hand the caller knows to be ready (shanten 0):
    /// the waits of a new hand are then its useful tiles, without measuring its shanten
    /// again.
    pub fn ready_scoring_waits(
        &mut self,
        hand: &Counts,
        ctx: &WinContext,
        rules: &Rules,
        unseen: &Counts,
    ) -> WaitValue {
        let key = wait_key(HandKey::of(hand, ctx.n_melds), ctx, rules);
        self.ready_scoring_waits_above(key, hand, ctx, rules, unseen, -1.0)
            .unwrap_or_default()
    }

    /// [`WaitMemo::ready_scoring_waits`] of the ready hand `hand` with the memo key `key`
    /// ([`wait_key`]) when the unseen copies of all its waits ([`WaitValue::shape`]) are
    /// above `floor`; `None`, scoring no wait, otherwise: the scoring copies
    /// ([`WaitValue::effective`]) are then at most `floor` as well.
    pub fn ready_scoring_waits_above(
        &mut self,
        key: FactsKey,
        hand: &Counts,
        ctx: &WinContext,
        rules: &Rules,
        unseen: &Counts,
        floor: f32,
    ) -> Option<WaitValue> {
        let n_melds = ctx.n_melds;
        let mut waits = || shanten::useful::useful_tiles_and_regular(hand, n_melds);
        self.ready_scoring_waits_above_with(key, hand, ctx, rules, unseen, floor, &mut waits)
    }

    /// [`WaitMemo::ready_scoring_waits_above`], the useful tiles of a new hand and their
    /// regular part given by `waits` (which must equal
    /// `shanten::useful::useful_tiles_and_regular` of the hand; asked only for a new one).
    #[allow(clippy::too_many_arguments)]
    pub fn ready_scoring_waits_above_with(
        &mut self,
        key: FactsKey,
        hand: &Counts,
        ctx: &WinContext,
        rules: &Rules,
        unseen: &Counts,
        floor: f32,
        waits: &mut dyn FnMut() -> (u64, u64),
    ) -> Option<WaitValue> {
        debug_assert_eq!(shanten::shanten(hand, &NO_USED, ctx.n_melds, 0), 0);
        debug_assert_eq!(
            waits(),
            shanten::useful::useful_tiles_and_regular(hand, ctx.n_melds)
        );
        self.lookup(key, hand, ctx, rules, unseen, Some(waits), floor)
    }

    /// The remembered waits of `hand` (memo key `key`) counted against `unseen`; `None`
    /// when their unseen copies are at most `floor` (then no wait is scored). `ready`
    /// gives the useful tiles of a hand known to be ready ([`WaitMemo::slot_in`]).
    #[allow(clippy::too_many_arguments)]
    fn lookup(
        &mut self,
        key: FactsKey,
        hand: &Counts,
        ctx: &WinContext,
        rules: &Rules,
        unseen: &Counts,
        ready: Option<&mut dyn FnMut() -> (u64, u64)>,
        floor: f32,
    ) -> Option<WaitValue> {
        debug_assert_eq!(key, wait_key(HandKey::of(hand, ctx.n_melds), ctx, rules));
        let (slot, regular) = Self::slot_in(&mut self.table, key, hand, ctx, ready);
        let mut out = WaitValue::default();
        // A count of copies is never below a negative floor: then the waits' copies are
        // summed as they are scored.
        let floored = floor >= 0.0;
        if floored {
            let mut bits = slot.waits;
            while bits != 0 {
                let w = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.shape += unseen[w] as u32;
            }
            // The scoring copies are a part of these (a third of some), so at most as many
            // (exactly so in `f32`: the sum of two counts is exact and rounding is
            // monotone).
            if out.shape as f32 <= floor {
                return None;
            }
        }
        // The waits with unseen copies scored first, all together (the waiting hand is laid
        // out once for them).
        let mut live = 0u64;
        let mut bits = slot.waits;
        while bits != 0 {
            let w = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if !floored {
                out.shape += unseen[w] as u32;
            }
            live |= u64::from(unseen[w] != 0) << w;
        }
        let fresh = live & !slot.scored;
        if fresh != 0 {
            score(
                slot,
                fresh,
                hand,
                key,
                ctx,
                rules,
                regular,
                &mut self.divisions,
                &mut self.waiting,
            );
        }
        let mut bits = live;
        while bits != 0 {
            let w = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Remembered without the flowers, which only add to the total.
            let fan = slot.fans[w] as u32 + ctx.flowers as u32;
            if slot.on_discard >> w & 1 == 1 {
                out.on_discard += unseen[w] as u32;
                out.fan_on_discard += unseen[w] as u32 * fan;
            } else if slot.self_draw_only >> w & 1 == 1 {
                out.self_draw_only += unseen[w] as u32;
                out.fan_self_draw_only += unseen[w] as u32 * fan;
            } else {
                continue;
            }
            out.best_fan = out.best_fan.max(fan);
        }
        Some(out)
    }

    /// [`WaitMemo::slot_in`] of this memo's table.
    #[cfg(test)]
    fn slot(
        &mut self,
        key: FactsKey,
        hand: &Counts,
        ctx: &WinContext,
        ready: bool,
    ) -> (&mut MemoSlot, Option<u64>) {
        let n_melds = ctx.n_melds;
        let mut waits = || shanten::useful::useful_tiles_and_regular(hand, n_melds);
        let ready = ready.then_some(&mut waits as &mut dyn FnMut() -> (u64, u64));
        Self::slot_in(&mut self.table, key, hand, ctx, ready)
    }

    /// The slot of `key` in `table`, filled with the hand's waits when new (its useful
    /// tiles, given by `ready`, when it is known to be ready); for a new ready hand also
    /// the kinds that complete it in the regular form (for the fan evaluator's unique-wait
    /// fans, which would otherwise search them again).
    fn slot_in<'t>(
        table: &'t mut memo::Table<MemoSlot, MEMO_SLOTS>,
        key: FactsKey,
        hand: &Counts,
        ctx: &WinContext,
        ready: Option<&mut dyn FnMut() -> (u64, u64)>,
    ) -> (&'t mut MemoSlot, Option<u64>) {
        let (slot, new) = table.find(key);
        let mut regular = None;
        if new {
            slot.waits = match ready {
                Some(waits) => {
                    let (useful, r) = waits();
                    regular = Some(r);
                    useful
                }
                None => shanten::waits(hand, &NO_USED, ctx.n_melds, 0),
            };
        }
        (slot, regular)
    }
}

/// Scores the waits `fresh` of the waiting hand `hand` (memo key `key`) into its memo
/// slot: each as a win on a discard, else as a self-draw ([`classify`]), the hand laid
/// out once for all of them and told its regular waits when they are known (`regular`).
/// The totals are kept without the flowers ([`wait_facts`]). The hand is laid out in
/// `scratch`, a waiting hand kept from an earlier call when there is one.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn score(
    slot: &mut MemoSlot,
    fresh: u64,
    hand: &Counts,
    key: FactsKey,
    ctx: &WinContext,
    rules: &Rules,
    regular: Option<u64>,
    divisions: &mut fan::DivisionMemo,
    scratch: &mut Option<fan::Waiting>,
) {
    slot.scored |= fresh;
    let Some(input) = win_input(hand, ctx) else {
        return;
    };
    // Laid out in place (the waiting hand is large: moving it costs more than a score).
    let waiting = match scratch {
        Some(waiting) => match waiting.lay_out(&input, &rules.fan) {
            Ok(()) => waiting,
            Err(_) => return,
        },
        None => match fan::Waiting::new(&input, &rules.fan) {
            Ok(waiting) => scratch.insert(waiting),
            Err(_) => return,
        },
    };
    if let Some(regular) = regular {
        waiting.know_regular_waits(regular);
    }
    let bare = |fan: u32| (fan - ctx.flowers as u32).min(u16::MAX as u32) as u16;
    let mut bits = fresh;
    while bits != 0 {
        let w = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        // The complete hand's key: the hand with the wait (never held four times here: a
        // fifth copy cannot win, and its scoring fails before any decomposition) and the
        // seat facts, which name the melds exactly.
        let divisions = (hand[w] < 4).then(|| {
            let [lo, hi] = key.hand.plus(w).words();
            (&mut *divisions, [lo, hi, key.facts])
        });
        match classify(waiting, w, divisions) {
            Wins::OnDiscard(fan) => {
                slot.on_discard |= 1 << w;
                slot.fans[w] = bare(fan);
            }
            Wins::SelfDrawOnly(fan) => {
                slot.self_draw_only |= 1 << w;
                slot.fans[w] = bare(fan);
            }
            Wins::Never => {}
        }
    }
}

/// The memo key of a waiting hand (`hand`: its [`HandKey`], the seat's number of melds
/// included) with its seat facts under `rules` ([`wait_facts`]).
pub fn wait_key(hand: HandKey, ctx: &WinContext, rules: &Rules) -> FactsKey {
    FactsKey {
        hand,
        facts: wait_facts(ctx, rules),
    }
}

/// The seat facts of a [`wait_key`]: the melds (ten bits each: kind and tile), the winds
/// and the flowers when they matter beyond the total. Flowers only add their number to a
/// win's total, so hands of different numbers of flowers share their waits (the memo
/// keeps the totals without them), unless `rules` count them toward the minimum or the
/// seat holds more than `rules` allow (no win is then valid).
pub fn wait_facts(ctx: &WinContext, rules: &Rules) -> u64 {
    let mut facts = 0u64;
    for (i, m) in ctx.melds[..ctx.n_melds.min(4) as usize].iter().enumerate() {
        facts |= ((m.kind as u64) << 8 | m.tile as u64) << (10 * i);
    }
    let flowers_matter = rules.fan.flowers_count_toward_min || ctx.flowers > rules.fan.max_flowers;
    let flowers = if flowers_matter { ctx.flowers } else { 0 };
    facts |=
        (ctx.seat_wind as u64) << 40 | (ctx.prevalent_wind as u64) << 48 | (flowers as u64) << 56;
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::MeldKind;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    fn ctx(melds: &[Meld]) -> WinContext {
        let mut m = [Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4];
        m[..melds.len()].copy_from_slice(melds);
        WinContext {
            melds: m,
            n_melds: melds.len() as u8,
            seat_wind: 0,
            prevalent_wind: 0,
            flowers: 0,
        }
    }

    #[test]
    fn a_cheap_wait_does_not_score_and_a_flush_wait_does() {
        let rules = Rules::gb();
        let all = [4u8; 34];
        // A plain mixed hand waiting on 3m / 6m: far below 8 fan.
        let cheap = scoring_waits(&counts("45m123p456p678s55z"), &ctx(&[]), &rules, &all);
        assert!(cheap.shape > 0);
        assert_eq!(cheap.on_discard, 0);
        // A full flush waiting on 3m / 6m: 24 fan or more.
        let flush = scoring_waits(&counts("1112345678999m"), &ctx(&[]), &rules, &all);
        assert!(flush.on_discard >= 8 && flush.best_fan >= 24, "{flush:?}");
        // Not ready: nothing.
        assert_eq!(
            scoring_waits(&counts("1357m2468p1357s1z"), &ctx(&[]), &rules, &all),
            WaitValue::default()
        );
    }

    /// The definition: every kind that completes the hand, scored as a discard win, then
    /// as a self-draw.
    fn reference(hand: &Counts, ctx: &WinContext, rules: &Rules, unseen: &Counts) -> WaitValue {
        let mut out = WaitValue::default();
        let melds = &ctx.melds[..ctx.n_melds as usize];
        let mut h = *hand;
        for w in 0..34usize {
            if h[w] >= 4 {
                continue;
            }
            h[w] += 1;
            let win = shanten::is_win(&h, &NO_USED, ctx.n_melds, 0);
            h[w] -= 1;
            if !win {
                continue;
            }
            out.shape += unseen[w] as u32;
            if unseen[w] == 0 {
                continue;
            }
            let mut input = WinInput::new(*hand, melds, w as u8).unwrap();
            input.seat_wind = ctx.seat_wind;
            input.prevalent_wind = ctx.prevalent_wind;
            input.flowers = ctx.flowers;
            if let Ok(f) = fan::evaluate(&input, &rules.fan) {
                if f.meets_minimum {
                    out.on_discard += unseen[w] as u32;
                    out.fan_on_discard += unseen[w] as u32 * f.total;
                    out.best_fan = out.best_fan.max(f.total);
                    continue;
                }
            }
            input.self_drawn = true;
            if let Ok(f) = fan::evaluate(&input, &rules.fan) {
                if f.meets_minimum {
                    out.self_draw_only += unseen[w] as u32;
                    out.fan_self_draw_only += unseen[w] as u32 * f.total;
                    out.best_fan = out.best_fan.max(f.total);
                }
            }
        }
        out
    }

    #[test]
    fn scoring_waits_and_the_memo_match_the_definition() {
        let mut rng = crate::wall::Rng::new(0x3A17_5C0E);
        let mut memo = WaitMemo::new();
        let meld_sets: [&[Meld]; 4] = [
            &[],
            &[Meld {
                kind: MeldKind::Pung,
                tile: 31,
            }],
            &[
                Meld {
                    kind: MeldKind::Chow,
                    tile: 1,
                },
                Meld {
                    kind: MeldKind::Kong,
                    tile: 5,
                },
            ],
            &[
                Meld {
                    kind: MeldKind::ConcealedKong,
                    tile: 20,
                },
                Meld {
                    kind: MeldKind::Pung,
                    tile: 27,
                },
                Meld {
                    kind: MeldKind::Chow,
                    tile: 10,
                },
            ],
        ];
        let mut ready = 0;
        let mut scoring = 0;
        for round in 0..6000 {
            for rules in [Rules::gb(), Rules::named("classic").unwrap()] {
                let melds = meld_sets[round % 4];
                let mut c = ctx(melds);
                c.seat_wind = (round / 4 % 4) as u8;
                c.prevalent_wind = (round / 16 % 4) as u8;
                c.flowers = (round % 3) as u8;
                // Waiting hands drawn from one suit, two suits or anywhere, so that many are
                // ready and some of those score.
                let n = 13 - 3 * melds.len();
                let span = [9, 18, 34, 9][round / 2 % 4];
                let mut hand = [0u8; 34];
                let mut k = 0;
                while k < n {
                    let t = rng.below(span) as usize;
                    let t = if span == 9 && round % 8 == 7 {
                        27 + t % 7
                    } else {
                        t
                    };
                    if hand[t] < 4 {
                        hand[t] += 1;
                        k += 1;
                    }
                }
                let mut unseen = [0u8; 34];
                for (t, u) in unseen.iter_mut().enumerate() {
                    *u = rng.below(5 - hand[t] as u64) as u8;
                }
                let want = reference(&hand, &c, &rules, &unseen);
                assert_eq!(scoring_waits(&hand, &c, &rules, &unseen), want, "{hand:?}");
                assert_eq!(memo.scoring_waits(&hand, &c, &rules, &unseen), want);
                if shanten::shanten(&hand, &NO_USED, c.n_melds, 0) == 0 {
                    let mut fresh = WaitMemo::new();
                    let key = wait_key(HandKey::of(&hand, c.n_melds), &c, &rules);
                    // No more unseen copies than the floor: nothing is scored.
                    let floor = want.shape as f32;
                    let f = &mut fresh;
                    let above = f.ready_scoring_waits_above(key, &hand, &c, &rules, &unseen, floor);
                    assert_eq!(above, None);
                    assert_eq!(fresh.slot(key, &hand, &c, true).0.scored, 0);
                    let below = floor - 0.5;
                    let f = &mut fresh;
                    let above = f.ready_scoring_waits_above(key, &hand, &c, &rules, &unseen, below);
                    assert_eq!(above, Some(want), "{hand:?}");
                    let got = fresh.ready_scoring_waits(&hand, &c, &rules, &unseen);
                    assert_eq!(got, want, "{hand:?}");
                }
                // Remembered, against other unseen copies.
                let all = [4u8; 34];
                let want_all = reference(&hand, &c, &rules, &all);
                assert_eq!(memo.scoring_waits(&hand, &c, &rules, &all), want_all);
                ready += usize::from(want_all.shape > 0);
                scoring += usize::from(want_all.effective() > 0.0);
            }
        }
        assert!(
            ready > 500 && scoring > 100,
            "{ready} ready, {scoring} scoring"
        );
    }

    #[test]
    fn flowers_share_the_remembered_waits_unless_they_decide_a_win() {
        let all = [4u8; 34];
        let hands = [
            counts("1112345678999m"),
            counts("45m123p456p678s55z"),
            counts("1122m3344p5566s7z"),
            counts("123m456m789m11p23p"),
        ];
        let check = |memo: &mut WaitMemo, rules: &Rules, flowers: u8| {
            for h in &hands {
                let mut c = ctx(&[]);
                c.flowers = flowers;
                let got = memo.scoring_waits(h, &c, rules, &all);
                assert_eq!(got, scoring_waits(h, &c, rules, &all), "{h:?} {flowers}");
            }
        };
        // gb: the flowers only add to the totals, so every count of them reads the same
        // slots, scored once.
        let gb = Rules::gb();
        let mut memo = WaitMemo::new();
        for flowers in [0, 3, 8, 1] {
            check(&mut memo, &gb, flowers);
            assert_eq!(memo.table.len(), hands.len());
        }
        let mut c = ctx(&[]);
        c.flowers = 3;
        let flush = memo.scoring_waits(&hands[0], &c, &gb, &all);
        c.flowers = 0;
        let bare = memo.scoring_waits(&hands[0], &c, &gb, &all);
        assert_eq!(flush.best_fan, bare.best_fan + 3);
        assert_eq!(
            flush.fan_on_discard,
            bare.fan_on_discard + 3 * bare.on_discard
        );
        // More flowers than the rule set allows: no win is valid, in slots of their own.
        check(&mut memo, &gb, 9);
        assert_eq!(memo.table.len(), 2 * hands.len());
        c.flowers = 9;
        assert_eq!(memo.scoring_waits(&hands[0], &c, &gb, &all).on_discard, 0);
        // Flowers counted toward the minimum decide wins: a slot per count of them.
        let mut toward = Rules::gb();
        toward.fan.flowers_count_toward_min = true;
        let mut memo = WaitMemo::new();
        for flowers in [0, 3, 8, 3] {
            check(&mut memo, &toward, flowers);
        }
        assert_eq!(memo.table.len(), 3 * hands.len());
    }

    #[test]
    fn the_memo_tells_seats_apart_and_starts_over_when_full() {
        let rules = Rules::gb();
        let all = [4u8; 34];
        let mut memo = WaitMemo::new();
        // All pungs with a dragon pung: the seat's melds decide whether it scores.
        let h = counts("111m222p333s5z66z");
        let bare = memo.scoring_waits(&h, &ctx(&[]), &rules, &all);
        assert_eq!(bare, scoring_waits(&h, &ctx(&[]), &rules, &all));
        let melded = ctx(&[Meld {
            kind: MeldKind::Pung,
            tile: 33,
        }]);
        let h2 = counts("111m222p5z66z");
        assert_eq!(
            memo.scoring_waits(&h2, &melded, &rules, &all),
            scoring_waits(&h2, &melded, &rules, &all)
        );
        // Far more hands than slots: the answers stay exact.
        let mut rng = crate::wall::Rng::new(7);
        for _ in 0..3 * MEMO_SLOTS {
            let mut hand = [0u8; 34];
            let mut k = 0;
            while k < 13 {
                let t = rng.below(34) as usize;
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            assert_eq!(
                memo.scoring_waits(&hand, &ctx(&[]), &rules, &all),
                scoring_waits(&hand, &ctx(&[]), &rules, &all)
            );
        }
        assert!(memo.table.len() <= memo::Table::<MemoSlot, MEMO_SLOTS>::FULL);
        assert_eq!(memo.scoring_waits(&h, &ctx(&[]), &rules, &all), bare);
    }
}
