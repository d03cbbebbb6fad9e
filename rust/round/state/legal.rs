//! Legal actions: the win test (the seat's quick filters, then the rule set's price), the
//! ready declaration (C-10), kongs, claims and the windows that collect them.

use super::{Phase, Round, TurnStart};
use crate::hand::{MeldKind, WinKind};
use crate::round::actions::Action;
use crate::round::ruleset::WinValue;
use crate::round::ruleset::{Facts, RuleSet};
use crate::round::scoring;
use crate::round::seat::chow_neighbours;
use crate::round::{AddedKongTile, KongLock, LastDiscardClaims};
use crate::tile::{self, Tile};

impl Round {
    /// Evaluates a win of `seat` on `t`; `Some` only if it is a legal win (shape and
    /// minimum). For a self-draw `t` is already in the hand. May tighten the seat's shanten
    /// bound.
    #[inline(always)]
    pub(in crate::round) fn eval_win(
        &mut self,
        seat: u8,
        t: Tile,
        kind: WinKind,
    ) -> Option<WinValue> {
        if self.plain {
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
    fn eval_win_full(&mut self, seat: u8, t: Tile, kind: WinKind) -> Option<WinValue> {
        let st = &self.seats[seat as usize];
        if st.barred {
            return None;
        }
        let mut c = st.hand;
        if kind != WinKind::SelfDrawn {
            c[t as usize] += 1;
        }
        if self.plain {
            let st = &mut self.seats[seat as usize];
            if kind != WinKind::SelfDrawn {
                // The shanten with the tile decides, and bounds the tiles held (far from
                // complete, it rules out the next discards too).
                if !st.completed_by(&c) {
                    return None;
                }
            } else if st.refresh_bound() > -1 {
                // Shanten -1 is exactly a complete hand.
                return None;
            }
            debug_assert!(scoring::complete_unfiltered(&c, st.melds()));
        }
        self.ruleset.win(&self.facts(), seat, &c, t, kind)
    }

    /// What the rule set may read of the hand now.
    #[inline]
    pub(in crate::round) fn facts(&self) -> Facts<'_> {
        Facts {
            rules: &self.rules,
            dealer: self.dealer,
            prevalent: self.prevalent,
            seats: &self.seats,
            discards: &self.discards[..self.n_discards as usize],
            visible: &self.visible,
            start: self.start,
            kong_draw: self.kong_draw,
            claim_from: self.claim_from,
            wall_spent: self.wall_spent(),
        }
    }

    /// True when no tile is left for the next draw after the seat to turn: the wall is
    /// empty, or with private walls the next seat's own wall is (last-tile fans, the last
    /// discard, kongs).
    #[inline]
    pub(in crate::round) fn wall_spent(&self) -> bool {
        if self.wall.is_private() {
            self.wall.remaining_in((self.turn + 5 - self.dealer) % 4) == 0
        } else {
            self.wall.remaining() == 0
        }
    }

    /// True when `seat` could not draw a kong's replacement: with private walls, its own
    /// wall is empty (B-1; the Botzone judge refuses such a kong). A shared wall is
    /// covered by [`Round::wall_spent`].
    #[inline]
    fn own_wall_empty(&self, seat: u8) -> bool {
        self.wall.is_private() && self.wall.remaining_in((seat + 4 - self.dealer) % 4) == 0
    }

    /// Adds `Ready(t)` for every discard `t` that declares ready (C-10), when the seat's
    /// tiles are within one tile of ready: the discards that leave a ready hand
    /// ([`scoring::ready_discards`]), and under a minimum-fan rule only those with a wait
    /// that scores.
    #[inline(never)]
    fn push_ready_discards(&mut self, seat: u8) {
        if !self.ready_reachable(seat) {
            return;
        }
        let st = &self.seats[seat as usize];
        let mut ready = scoring::ready_discards(&st.hand, st.melds());
        let mut c = st.hand;
        let scores = self.opts().ting_requires_reachable_min_fan;
        while ready != 0 {
            let t = ready.trailing_zeros() as u8;
            ready &= ready - 1;
            c[t as usize] -= 1;
            if !scores || self.ruleset.some_wait_scores(&self.facts(), seat, &c) {
                self.legal[seat as usize].push(Action::Ready(t));
            }
            c[t as usize] += 1;
        }
    }

    /// Whether the 14 - 3k tiles of `seat` are within one tile of ready (some discard may
    /// declare ready), tightening its bound on the way.
    fn ready_reachable(&mut self, seat: u8) -> bool {
        let st = &mut self.seats[seat as usize];
        if st.bound > 0 {
            return false;
        }
        // Most hands are told far from ready by their summaries, before any search.
        if st.stats.quads() == 0
            && !st
                .stats
                .may_be_one_exchange_from_complete(st.n_melds as usize)
        {
            st.bound = 1;
            return false;
        }
        if st.refresh_bound() > 0 {
            return false;
        }
        // Ready or better with the meld copies ignored: exact when there is no meld, and
        // beside melds measured again with their copies.
        st.n_melds == 0 || scoring::shanten_counting_melds(&st.hand, st.melds()) <= 0
    }

    #[inline]
    fn kong_locked(&self) -> bool {
        match self.opts().kong_lock_after_claim {
            KongLock::ChiPeng => matches!(self.start, TurnStart::Chow | TurnStart::Pung),
            KongLock::Chi => self.start == TurnStart::Chow,
            KongLock::None => false,
        }
    }

    #[inline(always)]
    pub(in crate::round) fn enter_turn(&mut self, seat: u8, start: TurnStart) {
        self.enter_turn_after(seat, start, false);
    }

    /// [`Round::enter_turn`]; `quiet` when play comes from a claim window that no seat could
    /// answer, whose opening cleared every offer and set every response to a pass: nothing
    /// is left to clear.
    #[inline(always)]
    pub(in crate::round) fn enter_turn_after(&mut self, seat: u8, start: TurnStart, quiet: bool) {
        self.phase = Phase::Turn;
        self.turn = seat;
        self.start = start;
        if quiet {
            debug_assert!(self.offered == 0 && self.won == 0 && self.deferred == 0);
            debug_assert!(self.responses == [Action::Pass; 4]);
        } else {
            self.clear_offers();
        }
        self.offered = 1 << seat;
        let s = seat as usize;
        if start.drew() {
            if let Some(v) = self.eval_win(seat, self.drawn, WinKind::SelfDrawn) {
                self.wins[s] = Some(v);
                self.won |= 1 << s;
                self.legal[s].push(Action::Win);
            }
        }
        let st = &self.seats[s];
        let st_ready = st.ready;
        if st_ready && start.drew() {
            self.legal[s].push(Action::Discard(self.drawn));
        } else {
            if self.defer {
                // Written only when the whole list is asked for (`Round::legal_list`).
                self.deferred_at = self.legal[s].len() as u8;
                self.deferred = st.stats.present();
                self.deferred_n = st.stats.distinct() as u8;
                self.legal[s].defer_discards(self.deferred);
            } else {
                self.legal[s].push_discards(st.stats.present());
            }
            if self.opts().ting_enabled && !st_ready {
                self.push_ready_discards(seat);
            }
            // A kong needs four copies held or a declared pung's kind held (looked at first:
            // most turns have neither), a tile after the seat's turn and a replacement for itself: with
            // private walls the next seat's wall and the seat's own (B-1).
            let st = &self.seats[s];
            let may_kong = st.stats.quads() != 0 || st.pungs & st.stats.present() != 0;
            if may_kong
                && !st_ready
                && !self.kong_locked()
                && (!(self.wall_spent() || self.own_wall_empty(seat))
                    || self.opts().kong_on_empty_wall)
            {
                let st = &self.seats[s];
                let l = &mut self.legal[s];
                if st.stats.quads() != 0 {
                    for t in 0..34u8 {
                        if st.hand[t as usize] == 4 && self.ruleset.may_declare_kong(t, &self.rules)
                        {
                            l.push(Action::ConcealedKong(t));
                        }
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
        if !quiet {
            self.responses = [Action::Pass; 4];
        }
    }

    /// Fills the (empty) legal actions of `seat` on the discard `t` of `from`.
    #[inline(never)]
    pub(in crate::round) fn claim_legal(&mut self, seat: u8, from: u8, t: Tile) {
        let win = self.eval_win(seat, t, WinKind::Discard);
        let st = &self.seats[seat as usize];
        // The common answer (nothing to claim) from counts and the bit set of kinds held,
        // before any rule is asked: a meld needs two copies of the discard, or (for the next
        // seat) two neighbours of it in its suit.
        let chow_shape = self.rules.table.chows
            && seat == (from + 1) % 4
            && tile::is_suited(t)
            && chow_neighbours(st.stats.present(), t);
        if win.is_none() && st.hand[t as usize] < 2 && !chow_shape {
            return;
        }
        if let Some(v) = win {
            self.wins[seat as usize] = Some(v);
            self.won |= 1 << seat;
            self.legal[seat as usize].push(Action::Win);
        }
        let last = self.wall_spent();
        let l = &mut self.legal[seat as usize];
        let st = &self.seats[seat as usize];
        let opts = &self.rules.table;
        let meld_ok = |tiles: &[Tile]| self.ruleset.may_claim(t, tiles, &self.rules);
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
            if opts.chows && seat == (from + 1) % 4 && tile::is_suited(t) {
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
            self.offered |= 1 << seat;
        }
    }

    /// Opens a claim window (`rob` false: from a turn, with no false win waiting, every
    /// response a pass and only `from` holding legal actions) or a robbing window on `t`
    /// played by `from`.
    #[inline(always)]
    pub(in crate::round) fn open_window(&mut self, from: u8, t: Tile, rob: bool) {
        self.phase = if rob { Phase::RobKong } else { Phase::Claim };
        self.claim_from = from;
        self.claim_tile = t;
        self.closed_window = None;
        self.pending = 0;
        if rob {
            self.false_win = None;
            self.responses = [Action::Pass; 4];
            self.clear_offers();
        } else {
            // A discard's window opens from a turn, where no false win waits, every
            // response is a pass (a turn is entered with them so, and only windows answer)
            // and only the player's own list may hold actions.
            debug_assert!(self.false_win.is_none() && self.responses == [Action::Pass; 4]);
            debug_assert!(self.offered & !(1 << from) == 0);
            self.legal[from as usize & 3].clear();
            self.offered = 0;
            self.clear_win_offers();
        }
        let auto_win = self.opts().ting_auto_win;
        let chows = self.opts().chows;
        if rob {
            for k in 1..4u8 {
                let s = (from + k) % 4;
                let may = if self.rob_discarder.is_some() {
                    self.rob_skip >> s & 1 == 0
                } else {
                    self.opts().rob_added_kong
                };
                if may {
                    if let Some(v) = self.eval_win(s, t, WinKind::RobbedKong) {
                        self.wins[s as usize] = Some(v);
                        self.won |= 1 << s;
                        self.legal[s as usize].push(Action::Win);
                        self.legal[s as usize].push(Action::Pass);
                        self.offered |= 1 << s;
                        self.take_answer(s, auto_win);
                    }
                }
            }
            return;
        }
        let plain = self.plain;
        for k in 1..4u8 {
            let s = (from + k) % 4;
            // Most seats can do nothing with most discards: told from their summaries (wins
            // of plain shapes only) before the legal actions are built. Only the next seat
            // may chow.
            if plain && self.seats[s as usize].quiet_on(t, chows && k == 1) {
                continue;
            }
            self.claim_legal(s, from, t);
            if !self.legal[s as usize].is_empty() {
                self.take_answer(s, auto_win);
            }
        }
    }

    /// A seat with legal actions in the window just opened: it decides, unless its hand is
    /// locked (then it claims its legal win automatically and nothing else).
    #[inline]
    fn take_answer(&mut self, s: u8, auto_win: bool) {
        if self.seats[s as usize].ready && auto_win {
            if self.legal[s as usize].contains(Action::Win) {
                self.responses[s as usize] = Action::Win;
            }
            return;
        }
        self.pending |= 1 << s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Policy, PolicyKind, RoundView};
    use crate::rules::Rules;

    /// Whether `seat` may answer the discard `t` of `from` in the window `r` has opened,
    /// found without the seat's summaries: the full win test and the counts of its tiles.
    fn may_answer(r: &Round, seat: u8, from: u8, t: Tile) -> (bool, bool) {
        let win = r.clone().eval_win_full(seat, t, WinKind::Discard).is_some();
        let st = &r.seats[seat as usize];
        let opts = &r.rules.table;
        let last = r.wall_spent();
        let c = &st.hand;
        let held = |x: i32| (0..27).contains(&x) && x / 9 == t as i32 / 9 && c[x as usize] > 0;
        let u = t as i32;
        let chow = opts.chows
            && seat == (from + 1) % 4
            && t < 27
            && ((held(u - 2) && held(u - 1))
                || (held(u - 1) && held(u + 1))
                || (held(u + 1) && held(u + 2)));
        let meld = !st.ready
            && (!last || opts.last_discard_claims == LastDiscardClaims::Any)
            && (c[t as usize] >= 2 || chow);
        (win, win || meld)
    }

    /// The round of `seed` twice: one listing every legal action, one whose turns defer
    /// their discards ([`Round::set_defer_discards`]).
    fn eager_and_deferring(rules: &Rules, seed: u64) -> (Round, Round) {
        let eager = Round::new(rules, seed, (seed % 4) as u8, 0).unwrap();
        let mut lazy = eager.clone();
        lazy.set_defer_discards(true);
        lazy.reset(seed, (seed % 4) as u8, 0).unwrap();
        (eager, lazy)
    }

    /// Four bots of `kind` for the hand of `seed`, seat `s` begun with `seed * 4 + s`.
    fn seated(kind: PolicyKind, rules: &Rules, seed: u64) -> Vec<Box<dyn Policy>> {
        (0..4)
            .map(|s| {
                let mut b = kind.build(rules);
                b.begin_hand(seed * 4 + s);
                b
            })
            .collect()
    }

    #[test]
    fn deferred_discards_read_as_the_listed_ones() {
        for rules in [Rules::gb(), Rules::named("classic").unwrap()] {
            let mut turns = 0;
            for seed in 0..20u64 {
                let (mut eager, mut lazy) = eager_and_deferring(&rules, seed);
                let mut bots = seated(PolicyKind::Random, &rules, seed);
                while !eager.is_over() {
                    let seat = eager.pending().trailing_zeros() as u8;
                    let want = eager.legal_actions(seat).to_vec();
                    assert_eq!(lazy.legal_count(seat), want.len());
                    for (i, &a) in want.iter().enumerate() {
                        assert_eq!(lazy.legal_action(seat, i), Some(a), "seed {seed} at {i}");
                    }
                    assert_eq!(lazy.legal_action(seat, want.len()), None);
                    // The uniform draw picks the action the list's draw picks.
                    let mut r1 = crate::wall::Rng::new(seed * 1000 + turns as u64);
                    let mut r2 = r1.clone();
                    let expect = match want.len() {
                        0 => Action::Pass,
                        1 => want[0],
                        n => want[r2.below(n as u64) as usize],
                    };
                    assert_eq!(lazy.legal_uniform(seat, &mut r1), expect);
                    assert_eq!(r1, r2);
                    turns += usize::from(lazy.deferred != 0);
                    // As kinds: the deferred discards and the actions written, which are
                    // the list without those discards, in its order.
                    let (kinds, listed) = lazy.legal_kinds(seat);
                    let rest: Vec<Action> = want
                        .iter()
                        .copied()
                        .filter(|a| !matches!(a, Action::Discard(t) if kinds >> t & 1 == 1))
                        .collect();
                    assert_eq!(listed, &rest[..], "seed {seed}");
                    assert_eq!(kinds.count_ones() as usize + rest.len(), want.len());
                    assert_eq!(eager.legal_kinds(seat), (0, &want[..]));
                    // Membership before the list is written, then the written list.
                    for &a in &want {
                        assert!(lazy.legal[seat as usize].contains(a));
                    }
                    assert_eq!(lazy.legal_actions(seat), &want[..]);
                    assert_eq!(lazy.observe(seat).legal.as_slice(), &want[..]);
                    let action = bots[seat as usize].act(&RoundView {
                        round: &eager,
                        seat,
                    });
                    eager.apply(seat, action).unwrap();
                    lazy.apply(seat, action).unwrap();
                }
                assert_eq!(lazy.result(), eager.result());
            }
            assert!(turns > 500, "{turns}");
        }
    }

    #[test]
    fn efficiency_play_is_the_same_when_turns_defer_their_discards() {
        for rules in [Rules::gb(), Rules::named("classic").unwrap()] {
            let mut deferred_turns = 0;
            for seed in 0..12u64 {
                let (mut eager, mut lazy) = eager_and_deferring(&rules, seed);
                let mut on_eager = seated(PolicyKind::Efficiency, &rules, seed);
                let mut on_lazy = seated(PolicyKind::Efficiency, &rules, seed);
                assert!(on_lazy[0].reads_turn_discards_as_kinds());
                while !eager.is_over() {
                    let seat = eager.pending().trailing_zeros() as u8;
                    deferred_turns += usize::from(lazy.deferred != 0);
                    let a = on_eager[seat as usize].act(&RoundView {
                        round: &eager,
                        seat,
                    });
                    let b = on_lazy[seat as usize].act(&RoundView { round: &lazy, seat });
                    assert_eq!(a, b, "seed {seed}");
                    // The lazy round's discards stay unwritten.
                    assert!(lazy.full_legal.get().is_none());
                    eager.apply(seat, a).unwrap();
                    lazy.apply(seat, b).unwrap();
                }
                assert_eq!(lazy.result(), eager.result());
            }
            assert!(deferred_turns > 300, "{deferred_turns}");
        }
    }

    #[test]
    fn claim_windows_offer_what_the_tiles_allow_and_bounds_hold() {
        for rules in [Rules::gb(), Rules::named("classic").unwrap()] {
            let (mut windows, mut answered, mut wins) = (0, 0, 0);
            for seed in 0..60u64 {
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                let mut bots: Vec<_> = (0..4).map(|_| PolicyKind::Random.build(&rules)).collect();
                for (s, b) in bots.iter_mut().enumerate() {
                    b.begin_hand(seed * 4 + s as u64);
                }
                while !r.is_over() {
                    let seat = r.pending().trailing_zeros() as u8;
                    let action = bots[seat as usize].act(&RoundView { round: &r, seat });
                    if let (Phase::Turn, Action::Discard(t)) = (r.phase(), action) {
                        // The window as the discard opens it, then each seat's answer.
                        let mut w = r.clone();
                        w.seats[seat as usize].remove(t, 1);
                        w.visible[t as usize] += 1;
                        w.open_window(seat, t, false);
                        windows += 1;
                        for k in 1..4u8 {
                            let s = (seat + k) % 4;
                            let (win, any) = may_answer(&w, s, seat, t);
                            let legal = &w.legal[s as usize];
                            assert_eq!(legal.contains(Action::Win), win, "seed {seed} seat {s}");
                            assert_eq!(!legal.is_empty(), any, "seed {seed} seat {s} on {t}");
                            assert_eq!(w.offered >> s & 1 == 1, any, "seed {seed} seat {s}");
                            answered += usize::from(any);
                            wins += usize::from(win);
                        }
                    }
                    r.apply(seat, action).unwrap();
                    // Every kept shanten bound is one (claims keep it less one, the
                    // ready search may raise it to 1).
                    for st in &r.seats {
                        let s = scoring::shanten_ignoring_melds(&st.hand, st.n_melds);
                        assert!(st.bound <= s, "seed {seed}: bound {} > {s}", st.bound);
                    }
                }
            }
            // Enough windows, answers and offered wins that each path was taken.
            assert!(
                windows > 3000 && answered > 300 && wins > 0,
                "{windows} {answered} {wins}"
            );
        }
    }
}
