//! The [`Round`] itself: table state, legal actions, applying actions, claims.

use super::actions::{Action, ActionList};
use super::events::{Event, WinKind};
use super::observation::DiscardEntry;
use super::scoring::{self, FanResult, WinInput};
use super::settlement::{payments, RoundResult, WinRecord};
use super::{AddedKongTile, FlowerMode, KongLock, LastDiscardClaims, PenaltyMode, TableOptions};
use crate::error::{MjError, MjResult};
use crate::hand::{Meld, MeldKind};
use crate::huainan::table::{self as hn, HuainanHand, WinMoment, WinWay};
use crate::huainan::{IndicatorThrow, RobbableKongs};
use crate::rules::{RuleSetKind, Rules};
use crate::tile::{self, Counts, Tile};
use crate::wall::{BreakThrow, Wall};

/// Where a hand stands: whose decision it waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The seat [`Round::turn`] must discard, win or declare a kong.
    Turn,
    /// A discard may be claimed; the seats in [`Round::pending`] decide.
    Claim,
    /// An added kong may be robbed; the seats in [`Round::pending`] decide.
    RobKong,
    /// The hand is over; see [`Round::result`].
    Over,
}

impl Phase {
    /// `turn`, `claim`, `rob_kong` or `over`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Turn => "turn",
            Phase::Claim => "claim",
            Phase::RobKong => "rob_kong",
            Phase::Over => "over",
        }
    }
}

/// How the current turn began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStart {
    /// The dealer's first turn, on the dealt tiles.
    Deal,
    /// A draw from the head (flower replacements included).
    Draw,
    /// A kong replacement from the tail (flower replacements after it included).
    Replacement,
    /// A claimed chow: no self-drawn win; no kong under `kong_lock_after_claim`.
    Chow,
    /// A claimed pung: no self-drawn win; no kong under `kong_lock_after_claim`.
    Pung,
}

impl TurnStart {
    /// True when the turn's tile came from the wall (a self-drawn win is possible).
    #[inline]
    pub fn drew(self) -> bool {
        matches!(
            self,
            TurnStart::Deal | TurnStart::Draw | TurnStart::Replacement
        )
    }
}

const NO_MELD: Meld = Meld {
    kind: MeldKind::Chow,
    tile: 0,
};

/// One seat's tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatState {
    /// Concealed tiles (flowers never).
    pub hand: Counts,
    /// How many concealed tiles.
    pub n_hand: u8,
    /// Declared melds; the first `n_melds` are used.
    pub melds: [Meld; 4],
    /// The seat each meld was claimed from (the seat itself for concealed and added kongs
    /// of its own pungs keep the pung's source).
    pub meld_from: [u8; 4],
    /// How many melds.
    pub n_melds: u8,
    /// Flowers set aside; the first `n_flowers` are used.
    pub flowers: [Tile; 8],
    /// How many flowers.
    pub n_flowers: u8,
    /// Declared ready (报听): the hand is locked.
    pub ready: bool,
    /// Barred from winning this hand after a penalised false declaration (G-7).
    pub barred: bool,
    /// Running summaries of `hand` for the fast completeness filter.
    pub(super) stats: scoring::ShapeStats,
    /// A lower bound on the shanten of `hand` beside the current melds, as
    /// [`scoring::shanten_ignoring_melds`] counts it, or [`NO_BOUND`]. Kept up to date
    /// without asking the oracle: drawing a tile lowers a replacement number by at most
    /// one and giving one up never lowers it, so a tile added lowers the bound by one and a
    /// tile removed keeps it; a new meld forgets it. A win needs shanten -1, so a seat whose
    /// bound rules that out skips the win test.
    pub(super) bound: i8,
    /// The kinds one more copy of which passes the completeness filter
    /// ([`scoring::ShapeStats::completing`]), when `completing_known`.
    pub(super) completing: u64,
    /// `completing` describes the current tiles and melds.
    pub(super) completing_known: bool,
}

/// [`SeatState::bound`] when nothing is known (no test may be skipped).
const NO_BOUND: i8 = -2;

impl Default for SeatState {
    fn default() -> Self {
        SeatState {
            hand: [0; 34],
            n_hand: 0,
            melds: [NO_MELD; 4],
            meld_from: [0; 4],
            n_melds: 0,
            flowers: [0; 8],
            n_flowers: 0,
            ready: false,
            barred: false,
            stats: scoring::ShapeStats::default(),
            bound: NO_BOUND,
            completing: 0,
            completing_known: false,
        }
    }
}

impl SeatState {
    /// The declared melds.
    #[inline]
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..self.n_melds as usize]
    }
    /// The flowers set aside.
    #[inline]
    pub fn flowers(&self) -> &[Tile] {
        &self.flowers[..self.n_flowers as usize]
    }
    #[inline]
    fn add(&mut self, t: Tile) {
        let c = self.hand[t as usize];
        self.stats.change(t, c, c + 1);
        self.hand[t as usize] = c + 1;
        self.n_hand += 1;
        self.bound = (self.bound - 1).max(NO_BOUND);
        self.completing_known = false;
    }
    #[inline]
    fn remove(&mut self, t: Tile, n: u8) {
        let c = self.hand[t as usize];
        self.stats.change(t, c, c - n);
        self.hand[t as usize] = c - n;
        self.n_hand -= n;
        self.completing_known = false;
    }

    /// Whether the hand, plus `extra` when given, passes the completeness filter. With a
    /// tile to add the answers for every kind are found at once and kept until the tiles
    /// change (each discard of the others asks again).
    #[inline(always)]
    fn may_complete(&mut self, extra: Option<Tile>) -> bool {
        match extra {
            None => self.stats.may_be_complete(self.n_melds as usize),
            Some(t) => {
                if !self.completing_known {
                    self.completing = self.stats.completing(&self.hand, self.n_melds as usize);
                    self.completing_known = true;
                }
                self.completing >> t & 1 == 1
            }
        }
    }
    #[inline]
    fn push_meld(&mut self, m: Meld, from: u8) {
        self.melds[self.n_melds as usize] = m;
        self.meld_from[self.n_melds as usize] = from;
        self.n_melds += 1;
        self.bound = NO_BOUND;
        self.completing_known = false;
    }

    /// False when the shanten bound rules out a win on the concealed tiles plus `extra`
    /// (the tiles as they are when `None`).
    #[inline]
    fn may_win(&self, extra: Option<Tile>) -> bool {
        // With a tile to come, a win needs shanten 0 now; without, -1.
        self.bound <= if extra.is_some() { 0 } else { -1 }
    }

    /// The shanten of the concealed tiles beside the melds, meld copies ignored
    /// ([`scoring::shanten_ignoring_melds`]), which also becomes the bound.
    #[inline]
    fn refresh_bound(&mut self) -> i8 {
        let s = scoring::shanten_ignoring_melds(&self.hand, self.n_melds);
        self.bound = s;
        s
    }
    #[inline]
    fn push_flower(&mut self, f: Tile) {
        if (self.n_flowers as usize) < 8 {
            self.flowers[self.n_flowers as usize] = f;
            self.n_flowers += 1;
        }
    }
}

/// Most discards a hand can have (every tile of the wall discarded once).
pub const MAX_DISCARDS: usize = 160;

/// One hand of play. See the [module documentation](super) for how to drive it.
#[derive(Debug, Clone)]
pub struct Round {
    pub(super) rules: Rules,
    pub(super) wall: Wall,
    pub(super) seats: [SeatState; 4],
    pub(super) dealer: u8,
    pub(super) prevalent: u8,
    pub(super) phase: Phase,
    pub(super) turn: u8,
    pub(super) start: TurnStart,
    /// The tile the current turn drew (the winning tile of a self-draw).
    pub(super) drawn: Tile,
    /// The current turn's tile came out of a kong's replacement sequence (杠上开花).
    pub(super) kong_draw: bool,
    pub(super) claim_tile: Tile,
    pub(super) claim_from: u8,
    pub(super) pending: u8,
    pub(super) responses: [Action; 4],
    pub(super) legal: [ActionList; 4],
    pub(super) wins: [Option<FanResult>; 4],
    /// Copies of each kind visible to everyone: discards and exposed melds.
    pub(super) visible: Counts,
    pub(super) discards: [DiscardEntry; MAX_DISCARDS],
    pub(super) n_discards: u8,
    pub(super) events: Vec<Event>,
    pub(super) result: Option<RoundResult>,
    pub(super) penalties: [i32; 4],
    pub(super) scores: [i32; 4],
    /// The Huainan 宝 state (huainan only).
    pub(super) huainan: Option<HuainanHand>,
    /// The value of each seat's available Huainan win, beside `wins`.
    pub(super) huainan_wins: [Option<crate::huainan::Score>; 4],
    pub(super) record: bool,
    /// In a robbing window on a kong claimed from a discard (huainan `robbable_kongs`): the
    /// discarder; `None` for an added kong.
    pub(super) rob_discarder: Option<u8>,
    /// Seats that may not rob in the current robbing window (bit set).
    pub(super) rob_skip: u8,
}

fn check_seat(seat: u8, what: &str) -> MjResult<()> {
    if seat > 3 {
        return Err(MjError::action(format!(
            "{what} {seat} is not a seat (0-3)"
        )));
    }
    Ok(())
}

impl Round {
    /// A new hand from `seed`: shuffles the wall, deals, replaces the opening flowers and
    /// stops at the first decision. `dealer` is the East seat, `prevalent_wind` 0-3
    /// (E S W N).
    pub fn new(rules: &Rules, seed: u64, dealer: u8, prevalent_wind: u8) -> MjResult<Round> {
        let t = &rules.table;
        let throw = match t.break_throw {
            super::BreakThrowOpt::Single => BreakThrow::Single,
            super::BreakThrowOpt::Double => BreakThrow::Double,
        };
        let wall = Wall::new(seed, t.flowers, throw);
        Self::with_wall(rules, wall, dealer, prevalent_wind)
    }

    /// A new hand on a given wall (scenarios, tests, replays of an external shuffle).
    pub fn with_wall(rules: &Rules, wall: Wall, dealer: u8, prevalent_wind: u8) -> MjResult<Round> {
        check_seat(dealer, "dealer")?;
        if prevalent_wind > 3 {
            return Err(MjError::rule(format!(
                "prevalent wind {prevalent_wind} is not 0-3 (E S W N)"
            )));
        }
        if rules.kind == RuleSetKind::Huainan && rules.table.flowers {
            return Err(MjError::rule(
                "huainan is played with 136 tiles and no flowers (D-1): a flower has no place in the 宝 cycles, 十三浪 or 九幺",
            ));
        }
        let want = if rules.table.flowers { 144 } else { 136 };
        if (rules.table.reserved_tiles as usize) + crate::wall::DEALT >= want {
            return Err(MjError::rule(format!(
                "reserved_tiles = {} leaves no tile to draw from a wall of {want} after the deal",
                rules.table.reserved_tiles
            )));
        }
        if wall.len() != want {
            return Err(MjError::rule(format!(
                "the rules need a wall of {want} tiles (flowers = {}), got {}",
                rules.table.flowers,
                wall.len()
            )));
        }
        let mut r = Round {
            rules: rules.clone(),
            wall,
            seats: Default::default(),
            dealer,
            prevalent: prevalent_wind,
            phase: Phase::Turn,
            turn: dealer,
            start: TurnStart::Deal,
            drawn: 0,
            kong_draw: false,
            claim_tile: 0,
            claim_from: 0,
            pending: 0,
            responses: [Action::Pass; 4],
            legal: [ActionList::default(); 4],
            wins: Default::default(),
            visible: [0; 34],
            discards: [DiscardEntry::default(); MAX_DISCARDS],
            n_discards: 0,
            events: Vec::with_capacity(256),
            result: None,
            penalties: [0; 4],
            scores: [0; 4],
            huainan: None,
            huainan_wins: Default::default(),
            record: true,
            rob_discarder: None,
            rob_skip: 0,
        };
        r.start();
        Ok(r)
    }

    /// Starts a new hand in place, reusing this round's buffers (no allocation).
    pub fn reset(&mut self, seed: u64, dealer: u8, prevalent_wind: u8) -> MjResult<()> {
        check_seat(dealer, "dealer")?;
        if prevalent_wind > 3 {
            return Err(MjError::rule(format!(
                "prevalent wind {prevalent_wind} is not 0-3 (E S W N)"
            )));
        }
        let t = &self.rules.table;
        let throw = match t.break_throw {
            super::BreakThrowOpt::Single => BreakThrow::Single,
            super::BreakThrowOpt::Double => BreakThrow::Double,
        };
        self.wall = Wall::new(seed, t.flowers, throw);
        self.seats = Default::default();
        self.dealer = dealer;
        self.prevalent = prevalent_wind;
        self.phase = Phase::Turn;
        self.turn = dealer;
        self.start = TurnStart::Deal;
        self.drawn = 0;
        self.kong_draw = false;
        self.pending = 0;
        self.responses = [Action::Pass; 4];
        self.wins = Default::default();
        self.visible = [0; 34];
        self.n_discards = 0;
        self.events.clear();
        self.result = None;
        self.penalties = [0; 4];
        self.huainan = None;
        self.huainan_wins = Default::default();
        self.rob_discarder = None;
        self.rob_skip = 0;
        self.start();
        Ok(())
    }

    /// Turns event recording on or off (on by default). Without events a hand still plays
    /// identically; [`Round::events`] then stays empty. For bulk simulation.
    pub fn set_record_events(&mut self, on: bool) {
        self.record = on;
    }

    #[inline]
    fn emit(&mut self, e: Event) {
        if self.record {
            self.events.push(e);
        }
    }

    /// Sets the match scores shown in observations (they do not affect play).
    pub fn set_scores(&mut self, scores: [i32; 4]) {
        self.scores = scores;
    }

    fn opts(&self) -> &TableOptions {
        &self.rules.table
    }

    // ---- the deal ---------------------------------------------------------------------

    fn start(&mut self) {
        self.wall.set_reserved(self.rules.table.reserved_tiles);
        let d = self.wall.dice();
        self.emit(Event::Dice {
            dice: d.dice,
            break_seat: d.break_seat,
            break_stack: d.break_stack,
        });
        let hands = self.wall.deal();
        let mut held = [[0 as Tile; 8]; 4];
        let mut n_held = [0usize; 4];
        let mut last_in = [0 as Tile; 4];
        for (i, h) in hands.iter().enumerate() {
            let seat = (self.dealer as usize + i) % 4;
            let n = if i == 0 { 14 } else { 13 };
            self.emit(Event::Deal {
                seat: seat as u8,
                tiles: *h,
                n: n as u8,
            });
            for &t in &h[..n] {
                if tile::is_flower(t) {
                    held[seat][n_held[seat]] = t;
                    n_held[seat] += 1;
                } else {
                    self.seats[seat].add(t);
                    last_in[seat] = t;
                }
            }
        }
        // Opening flower replacement (G-2).
        let each = self.opts().initial_flower_mode == FlowerMode::EachCompletes;
        loop {
            let mut any = false;
            for i in 0..4 {
                let seat = (self.dealer as usize + i) % 4;
                while n_held[seat] > 0 {
                    any = true;
                    let k = n_held[seat];
                    let flowers = held[seat];
                    n_held[seat] = 0;
                    for &f in &flowers[..k] {
                        self.emit(Event::Flower {
                            seat: seat as u8,
                            tile: f,
                        });
                        self.seats[seat].push_flower(f);
                    }
                    for _ in 0..k {
                        let Some(t) = self.wall.draw_tail() else {
                            self.exhaustive();
                            return;
                        };
                        self.emit(Event::Draw {
                            seat: seat as u8,
                            tile: t,
                            tail: true,
                        });
                        if tile::is_flower(t) {
                            held[seat][n_held[seat]] = t;
                            n_held[seat] += 1;
                        } else {
                            self.seats[seat].add(t);
                            last_in[seat] = t;
                        }
                    }
                    if !each {
                        break;
                    }
                }
            }
            if !any {
                break;
            }
        }
        if self.rules.kind == RuleSetKind::Huainan {
            self.choose_bao();
        }
        self.drawn = last_in[self.dealer as usize];
        self.kong_draw = false;
        self.enter_turn(self.dealer, TurnStart::Deal);
        self.run();
    }

    /// Huainan: after the deal a throw counts stacks to the 宝 indicator and turns it up
    /// (D-5); it stays in the wall as an ordinary tile or is set aside (D-6). Every 宝 dealt
    /// counts as drawn (§6.5).
    fn choose_bao(&mut self) {
        let o = &self.rules.huainan;
        let s2 = match o.bao_indicator_throw {
            IndicatorThrow::SeparateAfterDeal => self.wall.throw_pair(),
            IndicatorThrow::BreakDice => {
                let d = self.wall.dice().dice;
                d[0] + d[1]
            }
        };
        let n = self.wall.len();
        let (from, which, stays) = (
            o.bao_indicator_count_from,
            o.bao_indicator_tile,
            o.bao_indicator_stays_in_wall,
        );
        let Some(i) = crate::huainan::bao::indicator_position(s2, n, from, which).ok() else {
            return;
        };
        let Some(indicator) = self.wall.peek(i) else {
            return;
        };
        let Ok(mut h) = HuainanHand::at(s2, i, indicator) else {
            return;
        };
        if !stays {
            self.wall.block(i);
        }
        for s in 0..4u8 {
            h.on_deal(s, &self.seats[s as usize].hand, &self.rules.huainan);
        }
        self.emit(Event::Bao {
            indicator,
            tile: h.bao,
            throw: s2,
        });
        self.huainan = Some(h);
    }

    /// The 宝 of a Huainan hand.
    pub fn bao(&self) -> Option<Tile> {
        self.huainan.map(|h| h.bao)
    }

    /// In a robbing window: true when the kong was claimed on a discard (its tile is still
    /// that discard), false for an added kong (its tile has left the konger's hand).
    pub fn robbing_claimed_kong(&self) -> bool {
        self.phase == Phase::RobKong && self.rob_discarder.is_some()
    }

    /// The Huainan 宝 state (indicator, per-seat counters), for huainan hands.
    pub fn huainan(&self) -> Option<&HuainanHand> {
        self.huainan.as_ref()
    }

    /// Huainan: the facts of a win on `t` by `seat` the forms need from the table.
    fn huainan_moment(&self, seat: u8, way: WinWay) -> WinMoment {
        // Checked in this order so that the scan of the discards runs only for a self-drawn
        // win by a non-dealer while no one has melded.
        let first_own_draw = way == WinWay::SelfDrawn
            && seat != self.dealer
            && self.seats.iter().all(|s| s.n_melds == 0)
            && !self.discards().iter().any(|d| d.seat == seat);
        WinMoment {
            dealer_first_turn: way == WinWay::SelfDrawn && self.start == TurnStart::Deal,
            dealer_first_discard: way == WinWay::Discard
                && self.n_discards == 1
                && self.claim_from == self.dealer,
            first_own_draw,
            replacement: way == WinWay::SelfDrawn && self.kong_draw,
        }
    }

    // ---- public queries ---------------------------------------------------------------

    /// The rules this hand is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// True once the hand has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// Bit set of the seats that must decide now (bit `s` for seat `s`).
    #[inline]
    pub fn pending(&self) -> u8 {
        self.pending
    }
    /// The seats that must decide now, in seat order.
    pub fn pending_seats(&self) -> impl Iterator<Item = u8> {
        let p = self.pending;
        (0..4u8).filter(move |s| p >> s & 1 == 1)
    }
    /// The seat whose turn it is (in a claim or robbing window: the discarder or konger).
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }
    /// How the current turn began.
    #[inline]
    pub fn turn_start(&self) -> TurnStart {
        self.start
    }
    /// The dealer (East).
    #[inline]
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The prevalent wind, 0-3.
    #[inline]
    pub fn prevalent_wind(&self) -> u8 {
        self.prevalent
    }
    /// The seat wind of `seat`, 0-3 (the dealer is East).
    #[inline]
    pub fn seat_wind(&self, seat: u8) -> u8 {
        (seat + 4 - self.dealer) % 4
    }
    /// The tile under claim (the discard, or the added kong's tile), with whoever played it.
    pub fn claim(&self) -> Option<(u8, Tile)> {
        matches!(self.phase, Phase::Claim | Phase::RobKong)
            .then_some((self.claim_from, self.claim_tile))
    }
    /// The tile the current turn drew, if the turn began with a draw.
    pub fn drawn(&self) -> Option<Tile> {
        (self.phase == Phase::Turn && self.start.drew()).then_some(self.drawn)
    }
    /// The legal actions of `seat` now (empty when it has nothing to decide).
    #[inline]
    pub fn legal_actions(&self, seat: u8) -> &[Action] {
        if self.pending >> (seat & 3) & 1 == 1 {
            self.legal[(seat & 3) as usize].as_slice()
        } else {
            &[]
        }
    }
    /// A seat's tiles (full information; use [`Round::observe`] for a seat's own view).
    pub fn seat(&self, seat: u8) -> &SeatState {
        &self.seats[(seat & 3) as usize]
    }
    /// The wall.
    pub fn wall(&self) -> &Wall {
        &self.wall
    }
    /// Copies of each kind visible to everyone (discards and exposed melds).
    pub fn visible(&self) -> &Counts {
        &self.visible
    }
    /// Every discard in order, with its seat and whether it was claimed.
    pub fn discards(&self) -> &[DiscardEntry] {
        &self.discards[..self.n_discards as usize]
    }
    /// Every event so far, in order (full information).
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// How the hand ended, once it is over.
    pub fn result(&self) -> Option<&RoundResult> {
        self.result.as_ref()
    }
    /// The match scores given with [`Round::set_scores`].
    pub fn scores(&self) -> [i32; 4] {
        self.scores
    }

    // ---- legal actions ----------------------------------------------------------------

    /// Evaluates a win of `seat` on `t`; `Some` only if it is a legal win (shape and
    /// minimum). For a self-draw `t` is already in the hand. May tighten the seat's shanten
    /// bound.
    #[inline(always)]
    fn eval_win(
        &mut self,
        seat: u8,
        t: Tile,
        kind: WinKind,
    ) -> Option<(FanResult, Option<crate::huainan::Score>)> {
        if self.huainan.is_none() {
            // The common answer (no) from the seat's summaries, before anything is copied.
            let st = &mut self.seats[seat as usize];
            let extra = (kind != WinKind::SelfDrawn).then_some(t);
            if !st.may_win(extra) {
                debug_assert!(
                    st.barred || {
                        let mut c = st.hand;
                        if let Some(x) = extra {
                            c[x as usize] += 1;
                        }
                        !scoring::complete(&c, st.melds())
                    },
                    "the shanten bound of seat {seat} ruled out a win"
                );
                return None;
            }
            if st.barred || !st.may_complete(extra) {
                return None;
            }
        }
        self.eval_win_full(seat, t, kind)
    }

    /// [`Round::eval_win`] past its quick tests.
    #[inline(never)]
    fn eval_win_full(
        &mut self,
        seat: u8,
        t: Tile,
        kind: WinKind,
    ) -> Option<(FanResult, Option<crate::huainan::Score>)> {
        let st = &self.seats[seat as usize];
        if st.barred {
            return None;
        }
        let mut c = st.hand;
        if kind != WinKind::SelfDrawn {
            c[t as usize] += 1;
        }
        if let Some(h) = &self.huainan {
            let way = huainan_way(kind);
            let score = h.win(
                seat,
                &c,
                st.melds(),
                t,
                way,
                self.huainan_moment(seat, way),
                &self.rules.huainan,
            )?;
            let total = score.value.min(u32::MAX as u64) as u32;
            let fr = FanResult {
                fans: Default::default(),
                total,
                total_without_flowers: total,
                meets_minimum: true,
            };
            return Some((fr, Some(score)));
        }
        // Before the full test, the shanten of the tiles held: far from ready, it rules out
        // this win and, through the bound, the next ones.
        let need = if kind != WinKind::SelfDrawn { 0 } else { -1 };
        if self.seats[seat as usize].refresh_bound() > need {
            return None;
        }
        let st = &self.seats[seat as usize];
        if !scoring::complete_unfiltered(&c, st.melds()) {
            return None;
        }
        let input = self.win_input(seat, c, t, kind);
        match scoring::evaluate(&input, &self.rules) {
            Ok(fr) if fr.meets_minimum => Some((fr, None)),
            _ => None,
        }
    }

    fn win_input(&self, seat: u8, with_tile: Counts, t: Tile, kind: WinKind) -> WinInput {
        let st = &self.seats[seat as usize];
        let mut hand = with_tile;
        hand[t as usize] -= 1;
        // Copies of t visible elsewhere; a discard under claim is itself visible.
        let others = self.visible[t as usize].saturating_sub(u8::from(kind == WinKind::Discard));
        WinInput {
            hand,
            melds: st.melds,
            n_melds: st.n_melds,
            win_tile: t,
            self_drawn: kind == WinKind::SelfDrawn,
            fourth_tile: kind != WinKind::RobbedKong && others >= 3,
            about_kong: (kind == WinKind::SelfDrawn && self.kong_draw)
                || kind == WinKind::RobbedKong,
            // The last wall tile drawn as a kong replacement scores 杠上开花, not also 妙手回春.
            wall_last: kind != WinKind::RobbedKong
                && self.wall.remaining() == 0
                && !(kind == WinKind::SelfDrawn && self.kong_draw),
            seat_wind: self.seat_wind(seat),
            prevalent_wind: self.prevalent,
            flowers: st.n_flowers,
            declared_ready: st.ready && scoring::ready_scores(&self.rules),
        }
    }

    /// True if declaring ready is allowed with the 13 - 3k tiles `c` (C-10).
    fn ready_ok(&self, seat: u8, c: &Counts) -> bool {
        let st = &self.seats[seat as usize];
        if scoring::shanten(c, st.melds()) != 0 {
            return false;
        }
        if !self.opts().ting_requires_reachable_min_fan {
            return true;
        }
        let mut x = *c;
        for w in 0..34u8 {
            if x[w as usize] >= 4 {
                continue;
            }
            x[w as usize] += 1;
            if scoring::complete(&x, st.melds()) {
                let mut probe = self.win_input(seat, x, w, WinKind::SelfDrawn);
                probe.declared_ready = scoring::ready_scores(&self.rules);
                probe.fourth_tile = false;
                probe.wall_last = false;
                probe.about_kong = false;
                let ok = |inp: &WinInput| matches!(scoring::evaluate(inp, &self.rules), Ok(f) if f.meets_minimum);
                let mut on_discard = probe;
                on_discard.self_drawn = false;
                if ok(&probe) || ok(&on_discard) {
                    return true;
                }
            }
            x[w as usize] -= 1;
        }
        false
    }

    /// Whether the 14 - 3k tiles of `seat` are within one tile of ready (some discard may
    /// declare ready), tightening its bound on the way.
    fn ready_reachable(&mut self, seat: u8) -> bool {
        let st = &mut self.seats[seat as usize];
        if st.bound > 0 || st.refresh_bound() > 0 {
            return false;
        }
        // Ready or better with the meld copies ignored: exact when there is no meld.
        st.n_melds == 0 || scoring::shanten(&st.hand, st.melds()) <= 0
    }

    fn kong_locked(&self) -> bool {
        match self.opts().kong_lock_after_claim {
            KongLock::ChiPeng => matches!(self.start, TurnStart::Chow | TurnStart::Pung),
            KongLock::Chi => self.start == TurnStart::Chow,
            KongLock::None => false,
        }
    }

    pub(super) fn enter_turn(&mut self, seat: u8, start: TurnStart) {
        self.phase = Phase::Turn;
        self.turn = seat;
        self.start = start;
        for s in 0..4 {
            self.wins[s] = None;
            self.huainan_wins[s] = None;
            self.legal[s].clear();
        }
        let s = seat as usize;
        if start.drew() {
            if let Some((fr, hs)) = self.eval_win(seat, self.drawn, WinKind::SelfDrawn) {
                self.wins[s] = Some(fr);
                self.huainan_wins[s] = hs;
                self.legal[s].push(Action::Win);
            }
        }
        let st = &self.seats[s];
        let st_ready = st.ready;
        if st_ready && start.drew() {
            self.legal[s].push(Action::Discard(self.drawn));
        } else {
            self.legal[s].push_discards(st.stats.present());
            if self.opts().ting_enabled && !st_ready && self.ready_reachable(seat) {
                let mut c = self.seats[s].hand;
                for t in 0..34u8 {
                    if c[t as usize] == 0 {
                        continue;
                    }
                    c[t as usize] -= 1;
                    if self.ready_ok(seat, &c) {
                        self.legal[s].push(Action::Ready(t));
                    }
                    c[t as usize] += 1;
                }
            }
            let wall_ok = self.wall.remaining() > 0 || self.opts().kong_on_empty_wall;
            if !st_ready && !self.kong_locked() && wall_ok {
                let st = &self.seats[s];
                let l = &mut self.legal[s];
                let h = &self.huainan;
                let o = &self.rules.huainan;
                let mut quads = st.stats.quads();
                while quads != 0 {
                    let t = quads.trailing_zeros() as u8;
                    quads &= quads - 1;
                    if h.map_or(true, |h| h.meld_allowed(&[t], o)) {
                        l.push(Action::ConcealedKong(t));
                    }
                }
                // D-12: the tile added may be any held copy, or only the one just drawn.
                let any_held = self.rules.table.added_kong_tile == AddedKongTile::HeldOrDrawn;
                for m in st.melds() {
                    let tile_ok = any_held || (start.drew() && self.drawn == m.tile);
                    if m.kind == MeldKind::Pung && st.hand[m.tile as usize] > 0 && tile_ok {
                        l.push(Action::AddedKong(m.tile));
                    }
                }
            }
        }
        self.pending = 1 << seat;
        self.responses = [Action::Pass; 4];
    }

    /// Fills the (empty) legal actions of `seat` on the discard `t` of `from`.
    fn claim_legal(&mut self, seat: u8, from: u8, t: Tile) {
        if let Some((fr, hs)) = self.eval_win(seat, t, WinKind::Discard) {
            self.wins[seat as usize] = Some(fr);
            self.huainan_wins[seat as usize] = hs;
            self.legal[seat as usize].push(Action::Win);
        }
        let l = &mut self.legal[seat as usize];
        let st = &self.seats[seat as usize];
        let opts = &self.rules.table;
        let last = self.wall.remaining() == 0;
        let o = &self.rules.huainan;
        let h = self.huainan;
        let meld_ok = |tiles: &[Tile]| {
            h.map_or(true, |h| {
                h.discard_claimable(t, o) && h.meld_allowed(tiles, o)
            })
        };
        if !st.ready
            && (!last || opts.last_discard_claims == LastDiscardClaims::Any)
            && meld_ok(&[t])
        {
            let c = &st.hand;
            let n = c[t as usize];
            if n >= 3 && (!last || opts.kong_on_empty_wall) {
                l.push(Action::Kong(t));
            }
            if n >= 2 {
                l.push(Action::Pung(t));
            }
            if seat == (from + 1) % 4 && tile::is_suited(t) {
                let r = t % 9;
                let has = |x: Tile| c[x as usize] > 0;
                if r >= 2 && has(t - 2) && has(t - 1) && meld_ok(&[t - 2, t - 1]) {
                    l.push(Action::Chow(t - 2));
                }
                if (1..=7).contains(&r) && has(t - 1) && has(t + 1) && meld_ok(&[t - 1, t + 1]) {
                    l.push(Action::Chow(t - 1));
                }
                if r <= 6 && has(t + 1) && has(t + 2) && meld_ok(&[t + 1, t + 2]) {
                    l.push(Action::Chow(t));
                }
            }
        }
        if !l.is_empty() {
            l.push(Action::Pass);
        }
    }

    /// Opens a claim window (`rob` false) or a robbing window on `t` played by `from`.
    pub(super) fn open_window(&mut self, from: u8, t: Tile, rob: bool) {
        self.phase = if rob { Phase::RobKong } else { Phase::Claim };
        self.claim_from = from;
        self.claim_tile = t;
        self.pending = 0;
        self.responses = [Action::Pass; 4];
        for s in 0..4 {
            self.wins[s] = None;
            self.huainan_wins[s] = None;
            self.legal[s].clear();
        }
        let auto_win = self.opts().ting_auto_win;
        for k in 1..4u8 {
            let s = (from + k) % 4;
            if rob {
                let may = if self.rob_discarder.is_some() {
                    self.rob_skip >> s & 1 == 0
                } else {
                    self.opts().rob_added_kong
                };
                if may {
                    if let Some((fr, hs)) = self.eval_win(s, t, WinKind::RobbedKong) {
                        self.wins[s as usize] = Some(fr);
                        self.huainan_wins[s as usize] = hs;
                        self.legal[s as usize].push(Action::Win);
                        self.legal[s as usize].push(Action::Pass);
                    }
                }
            } else {
                self.claim_legal(s, from, t);
            }
            if self.legal[s as usize].is_empty() {
                continue;
            }
            if self.seats[s as usize].ready && auto_win {
                // A locked hand claims its legal win automatically and nothing else.
                if self.legal[s as usize].contains(Action::Win) {
                    self.responses[s as usize] = Action::Win;
                }
                continue;
            }
            self.pending |= 1 << s;
        }
    }

    // ---- applying actions -------------------------------------------------------------

    /// Applies `action` for `seat`. Fails with [`MjError::IllegalAction`], changing
    /// nothing, when the seat has nothing to decide or the action is not among its legal
    /// actions (except a false win declaration under `penalty_mode = mcr_1998`, which is
    /// penalised).
    pub fn apply(&mut self, seat: u8, action: Action) -> MjResult<()> {
        check_seat(seat, "seat")?;
        if self.phase == Phase::Over {
            return Err(MjError::action("the hand is over"));
        }
        let is_pending = self.pending >> seat & 1 == 1;
        if is_pending && self.legal[seat as usize].contains(action) {
            self.step(seat, action);
            self.run();
            return Ok(());
        }
        if action == Action::Win
            && self.opts().penalty_mode == PenaltyMode::Mcr1998
            && self.may_declare(seat)
        {
            self.penalise(seat);
            self.run();
            return Ok(());
        }
        if !is_pending {
            let waiting: Vec<String> = self.pending_seats().map(|s| s.to_string()).collect();
            return Err(MjError::action(format!(
                "seat {seat} has nothing to decide now ({} waits for seat {})",
                self.phase.as_str(),
                waiting.join(", ")
            )));
        }
        let legal: Vec<String> = self.legal[seat as usize]
            .as_slice()
            .iter()
            .map(|a| a.describe())
            .collect();
        Err(MjError::action(format!(
            "{} is not legal for seat {seat} now; legal: {}",
            action.describe(),
            legal.join(", ")
        )))
    }

    /// Whether `seat` could declare a win at all now (for penalising false declarations).
    fn may_declare(&self, seat: u8) -> bool {
        if self.seats[seat as usize].barred {
            return false;
        }
        match self.phase {
            Phase::Turn => seat == self.turn && self.start.drew(),
            Phase::Claim | Phase::RobKong => {
                seat != self.claim_from && self.responses[seat as usize] == Action::Pass
            }
            Phase::Over => false,
        }
    }

    fn penalise(&mut self, seat: u8) {
        let st = &self.seats[seat as usize];
        let mut c = st.hand;
        if self.phase != Phase::Turn {
            c[self.claim_tile as usize] += 1;
        }
        let each: u8 = if scoring::complete(&c, st.melds()) {
            10
        } else {
            20
        };
        for s in 0..4 {
            if s != seat as usize {
                self.penalties[s] += each as i32;
                self.penalties[seat as usize] -= each as i32;
            }
        }
        self.emit(Event::Penalty { seat, each });
        self.seats[seat as usize].barred = true;
        match self.phase {
            Phase::Turn => {
                let start = self.start;
                self.enter_turn(seat, start);
            }
            _ => {
                self.pending &= !(1 << seat);
                self.legal[seat as usize].clear();
                self.wins[seat as usize] = None;
            }
        }
    }

    /// Applies a legal action (no checks).
    fn step(&mut self, seat: u8, action: Action) {
        match self.phase {
            Phase::Turn => self.step_turn(seat, action),
            Phase::Claim | Phase::RobKong => {
                self.responses[seat as usize] = action;
                self.pending &= !(1 << seat);
            }
            Phase::Over => {}
        }
    }

    fn step_turn(&mut self, seat: u8, action: Action) {
        let s = seat as usize;
        match action {
            Action::Discard(t) | Action::Ready(t) => {
                let ready = matches!(action, Action::Ready(_));
                self.seats[s].remove(t, 1);
                if ready {
                    self.seats[s].ready = true;
                }
                if (self.n_discards as usize) < MAX_DISCARDS {
                    self.discards[self.n_discards as usize] = DiscardEntry {
                        seat,
                        tile: t,
                        claimed: false,
                        ready,
                    };
                    self.n_discards += 1;
                }
                self.visible[t as usize] += 1;
                if let Some(h) = &mut self.huainan {
                    let st = &self.seats[s];
                    h.on_discard(seat, t, &st.hand, st.melds(), &self.rules.huainan);
                }
                self.emit(Event::Discard {
                    seat,
                    tile: t,
                    ready,
                });
                self.open_window(seat, t, false);
            }
            Action::Win => {
                let t = self.drawn;
                self.finish(&[seat], WinKind::SelfDrawn, seat, t);
            }
            Action::ConcealedKong(t) => {
                self.seats[s].remove(t, 4);
                self.seats[s].push_meld(
                    Meld {
                        kind: MeldKind::ConcealedKong,
                        tile: t,
                    },
                    seat,
                );
                self.emit(Event::ConcealedKong { seat, tile: t });
                self.draw_for(seat, true);
            }
            Action::AddedKong(t) => {
                self.seats[s].remove(t, 1);
                self.visible[t as usize] += 1;
                self.emit(Event::AddedKong { seat, tile: t });
                self.open_window(seat, t, true);
            }
            Action::Chow(_) | Action::Pung(_) | Action::Kong(_) | Action::Pass => {}
        }
    }

    /// Resolves automatic decisions (locked hands) and finished claim windows until a
    /// seat must decide or the hand is over.
    pub(super) fn run(&mut self) {
        loop {
            match self.phase {
                Phase::Turn => {
                    let seat = self.turn;
                    if !self.seats[seat as usize].ready || !self.start.drew() {
                        return;
                    }
                    let l = &self.legal[seat as usize];
                    let action = if l.contains(Action::Win) {
                        if !self.opts().ting_auto_win {
                            return;
                        }
                        Action::Win
                    } else {
                        if !self.opts().ting_auto_discard {
                            return;
                        }
                        Action::Discard(self.drawn)
                    };
                    self.step_turn(seat, action);
                }
                Phase::Claim | Phase::RobKong => {
                    if self.pending != 0 {
                        return;
                    }
                    self.resolve();
                }
                Phase::Over => return,
            }
        }
    }

    fn resolve(&mut self) {
        let from = self.claim_from;
        let t = self.claim_tile;
        let order = [(from + 1) % 4, (from + 2) % 4, (from + 3) % 4];
        if let Some(h) = &mut self.huainan {
            // A win passed up on another seat's tile locks such wins until the next draw.
            for &s in &order {
                if self.legal[s as usize].contains(Action::Win)
                    && self.responses[s as usize] != Action::Win
                {
                    h.on_declined(s, &self.rules.huainan);
                }
            }
        }
        let mut winners = [0u8; 3];
        let mut n = 0;
        for &s in &order {
            if self.responses[s as usize] == Action::Win {
                winners[n] = s;
                n += 1;
            }
        }
        if self.phase == Phase::RobKong {
            let discarder = self.rob_discarder.take();
            self.rob_skip = 0;
            if n > 0 {
                let n = if self.opts().multi_winner_on_rob {
                    n
                } else {
                    1
                };
                if discarder.is_some() {
                    // The robbers take the discard itself.
                    self.mark_claimed();
                }
                self.finish(&winners[..n], WinKind::RobbedKong, from, t);
            } else if let Some(d) = discarder {
                // Nobody robbed the kong claimed on `d`'s discard: it stands.
                self.claim_meld(
                    from,
                    d,
                    Meld {
                        kind: MeldKind::Kong,
                        tile: t,
                    },
                    3,
                );
                self.draw_for(from, true);
            } else {
                let st = &mut self.seats[from as usize];
                if let Some(i) = st
                    .melds()
                    .iter()
                    .position(|m| m.kind == MeldKind::Pung && m.tile == t)
                {
                    st.melds[i].kind = MeldKind::Kong;
                }
                self.draw_for(from, true);
            }
            return;
        }
        if n > 0 {
            let n = if self.opts().single_winner_headbump {
                1
            } else {
                n
            };
            self.mark_claimed();
            self.finish(&winners[..n], WinKind::Discard, from, t);
            return;
        }
        for &s in &order {
            match self.responses[s as usize] {
                Action::Pung(_) => {
                    self.claim_meld(
                        s,
                        from,
                        Meld {
                            kind: MeldKind::Pung,
                            tile: t,
                        },
                        2,
                    );
                    self.emit(Event::Pung {
                        seat: s,
                        from,
                        tile: t,
                    });
                    self.kong_draw = false;
                    self.enter_turn(s, TurnStart::Pung);
                    return;
                }
                Action::Kong(_) => {
                    if self.huainan.is_some()
                        && self.rules.huainan.robbable_kongs == RobbableKongs::BuGangZhiGang
                    {
                        // D-17 alternative: the kong may be robbed before it takes the discard,
                        // by anyone but the discarder and the seats that passed a win on it.
                        let passed = order
                            .iter()
                            .filter(|&&x| self.legal[x as usize].contains(Action::Win))
                            .fold(0u8, |m, &x| m | 1 << x);
                        self.emit(Event::Kong {
                            seat: s,
                            from,
                            tile: t,
                        });
                        self.rob_discarder = Some(from);
                        self.rob_skip = passed | 1 << from;
                        self.open_window(s, t, true);
                        return;
                    }
                    self.claim_meld(
                        s,
                        from,
                        Meld {
                            kind: MeldKind::Kong,
                            tile: t,
                        },
                        3,
                    );
                    self.emit(Event::Kong {
                        seat: s,
                        from,
                        tile: t,
                    });
                    self.draw_for(s, true);
                    return;
                }
                _ => {}
            }
        }
        let next = order[0];
        if let Action::Chow(low) = self.responses[next as usize] {
            self.mark_claimed();
            let st = &mut self.seats[next as usize];
            for x in low..low + 3 {
                if x != t {
                    st.remove(x, 1);
                    self.visible[x as usize] += 1;
                }
            }
            st.push_meld(
                Meld {
                    kind: MeldKind::Chow,
                    tile: low,
                },
                from,
            );
            if let Some(h) = &mut self.huainan {
                h.on_claim(next);
            }
            self.emit(Event::Chow {
                seat: next,
                from,
                tile: t,
                low,
            });
            self.kong_draw = false;
            self.enter_turn(next, TurnStart::Chow);
            return;
        }
        self.draw_for(next, false);
    }

    fn mark_claimed(&mut self) {
        if self.n_discards > 0 {
            self.discards[self.n_discards as usize - 1].claimed = true;
        }
    }

    fn claim_meld(&mut self, seat: u8, from: u8, m: Meld, from_hand: u8) {
        self.mark_claimed();
        if let Some(h) = &mut self.huainan {
            h.on_claim(seat);
        }
        let st = &mut self.seats[seat as usize];
        st.remove(m.tile, from_hand);
        st.push_meld(m, from);
        self.visible[m.tile as usize] += from_hand;
    }

    /// Draws for `seat` from the head, or from the tail after a kong (`kong`), setting
    /// flowers aside and replacing them; an empty wall ends the hand.
    fn draw_for(&mut self, seat: u8, kong: bool) {
        let mut from_tail = kong;
        let t = loop {
            let next = if from_tail {
                self.wall.draw_tail()
            } else {
                self.wall.draw()
            };
            let Some(t) = next else {
                self.exhaustive();
                return;
            };
            self.emit(Event::Draw {
                seat,
                tile: t,
                tail: from_tail,
            });
            if tile::is_flower(t) {
                self.emit(Event::Flower { seat, tile: t });
                self.seats[seat as usize].push_flower(t);
                from_tail = true;
                continue;
            }
            break t;
        };
        self.seats[seat as usize].add(t);
        if let Some(h) = &mut self.huainan {
            h.on_wall_tile(seat, t);
            h.on_own_draw(seat);
        }
        self.drawn = t;
        self.kong_draw = kong;
        self.enter_turn(
            seat,
            if kong {
                TurnStart::Replacement
            } else {
                TurnStart::Draw
            },
        );
    }

    fn exhaustive(&mut self) {
        self.emit(Event::ExhaustiveDraw);
        self.phase = Phase::Over;
        self.pending = 0;
        let mut deltas = self.penalties;
        if self.huainan.is_some() && self.rules.huainan.kong_points_on_draw {
            // D-18 alternative: the kongs kept are paid on a draw too.
            let (kongs, n) = self.kongs_kept();
            let d = crate::huainan::settle::settle_draw(&kongs[..n], &self.rules.huainan);
            for (r, x) in deltas.iter_mut().zip(d) {
                *r += x.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            }
        }
        self.result = Some(RoundResult {
            wins: Vec::new(),
            deltas,
            penalties: self.penalties,
            exhaustive: true,
        });
    }

    /// Every kong on the table with its owner (Huainan kong points, D-27).
    fn kongs_kept(&self) -> ([(usize, MeldKind); 16], usize) {
        let mut kongs = [(0usize, MeldKind::Kong); 16];
        let mut n = 0;
        for (s, st) in self.seats.iter().enumerate() {
            for m in st.melds() {
                if m.kind.is_kong() && n < 16 {
                    kongs[n] = (s, m.kind);
                    n += 1;
                }
            }
        }
        (kongs, n)
    }

    fn finish(&mut self, winners: &[u8], kind: WinKind, from: u8, t: Tile) {
        let mut result = RoundResult {
            wins: Vec::with_capacity(winners.len()),
            deltas: self.penalties,
            penalties: self.penalties,
            exhaustive: false,
        };
        let base = self.opts().base as i32;
        let mode = self.opts().settlement;
        for (i, &w) in winners.iter().enumerate() {
            let fan = match self.wins[w as usize].take() {
                Some(f) => f,
                None => continue,
            };
            let st = &mut self.seats[w as usize];
            // The winning tile joins the winner's hand (a discard or a robbed kong's tile;
            // with several robbers only the first takes the physical tile).
            if kind != WinKind::SelfDrawn && i == 0 {
                st.add(t);
            }
            let mut hand = st.hand;
            if kind != WinKind::SelfDrawn && i > 0 {
                hand[t as usize] += 1;
            }
            let hscore = self.huainan_wins[w as usize].take();
            let deltas = match &hscore {
                Some(sc) => {
                    let d = hn::settle_win(
                        &[(w, sc.raw_value)],
                        huainan_way(kind),
                        from,
                        self.dealer,
                        &[],
                        &self.rules.huainan,
                    );
                    d.map(|x| x.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
                }
                None => payments(mode, base, w, kind, from, fan.total as i32),
            };
            for (total, d) in result.deltas.iter_mut().zip(deltas) {
                *total += d;
            }
            let (melds, n_melds, flowers) = (st.melds, st.n_melds, st.n_flowers);
            self.emit(Event::Win {
                seat: w,
                from,
                tile: t,
                kind,
                fan: fan.total.min(u16::MAX as u32) as u16,
            });
            result.wins.push(WinRecord {
                seat: w,
                from,
                tile: t,
                kind,
                fan,
                hand,
                melds,
                n_melds,
                flowers,
                deltas,
                huainan: hscore,
            });
        }
        if self.huainan.is_some() && !result.wins.is_empty() {
            // Kong points (D-27): every kong kept, paid by each other seat.
            let mut kongs = [(0u8, MeldKind::Kong); 16];
            let mut n = 0;
            for (s, st) in self.seats.iter().enumerate() {
                for m in st.melds() {
                    if m.kind.is_kong() && n < 16 {
                        kongs[n] = (s as u8, m.kind);
                        n += 1;
                    }
                }
            }
            let d = hn::settle_win(
                &[],
                huainan_way(kind),
                from,
                self.dealer,
                &kongs[..n],
                &self.rules.huainan,
            );
            for (r, x) in result.deltas.iter_mut().zip(d) {
                *r += x as i32;
            }
        }
        self.phase = Phase::Over;
        self.pending = 0;
        self.result = Some(result);
    }
}

fn huainan_way(kind: WinKind) -> WinWay {
    match kind {
        WinKind::SelfDrawn => WinWay::SelfDrawn,
        WinKind::Discard => WinWay::Discard,
        WinKind::RobbedKong => WinWay::RobbedKong,
    }
}
