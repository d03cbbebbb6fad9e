//! Applying actions: the checks of [`Round::apply`], penalties for false declarations
//! (G-7), a turn's own actions, and the automatic decisions of locked hands.

use super::{check_seat, Phase, Round, MAX_DISCARDS};
use crate::error::{MjError, MjResult};
use crate::hand::{Meld, MeldKind, WinKind};
use crate::round::actions::Action;
use crate::round::events::Event;
use crate::round::observation::DiscardEntry;
use crate::round::ruleset::RuleSet;
use crate::round::{scoring, PenaltyMode};

impl Round {
    /// Applies `action` for `seat`. Fails with [`MjError::IllegalAction`], changing
    /// nothing, when the seat has nothing to decide or the action is not among its legal
    /// actions (except a false win declaration under `penalty_mode = mcr_1998` or
    /// `botzone`, which is penalised).
    #[inline]
    pub fn apply(&mut self, seat: u8, action: Action) -> MjResult<()> {
        self.apply_inline(seat, action)
    }

    /// [`Round::apply`], always inlined into its caller: for the loop that does little but
    /// apply decisions ([`crate::policy::play_out`]), where the call's own cost counts.
    #[inline(always)]
    pub(crate) fn apply_inline(&mut self, seat: u8, action: Action) -> MjResult<()> {
        // The common case first: a legal action of a seat that must decide (no false win to
        // take back, the hand not over), as the checks below would take it.
        if seat <= 3
            && (action != Action::Win || self.closed_window.is_none())
            && self.phase != Phase::Over
            && self.pending >> seat & 1 == 1
            && self.legal[seat as usize].contains(action)
        {
            self.step(seat, action);
            self.run();
            return Ok(());
        }
        self.apply_checked(seat, action)
    }

    /// [`Round::apply`] with every check in order: penalties, errors.
    #[inline(never)]
    fn apply_checked(&mut self, seat: u8, action: Action) -> MjResult<()> {
        check_seat(seat, "seat")?;
        if action == Action::Win && self.late_false_win(seat) {
            self.take_back_window();
            self.penalise_ending(seat);
            return Ok(());
        }
        if self.phase == Phase::Over {
            return Err(MjError::action("the hand is over"));
        }
        let is_pending = self.pending >> seat & 1 == 1;
        if is_pending && self.legal[seat as usize].contains(action) {
            self.step(seat, action);
            self.run();
            return Ok(());
        }
        let mode = self.opts().penalty_mode;
        if action == Action::Win && mode != PenaltyMode::Reject && self.may_declare(seat) {
            if mode == PenaltyMode::Botzone {
                self.declare_false_win(seat);
                return Ok(());
            }
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
        let legal: Vec<String> = self
            .legal_list(seat)
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

    /// B-4: a false declaration ends the hand, unless, on a discard or an added kong, a
    /// seat before it in claim order (counted from the discarder or konger) declares a
    /// true win: the judge reads the answers in that order and scores the first win
    /// declared, true or false. Until the seats before it have answered, the false
    /// declaration waits (the seat has nothing more to decide).
    fn declare_false_win(&mut self, seat: u8) {
        if !matches!(self.phase, Phase::Claim | Phase::RobKong) {
            self.penalise_ending(seat);
            return;
        }
        let first = match self.false_win {
            Some(f) if self.claim_rank(f) < self.claim_rank(seat) => f,
            _ => seat,
        };
        self.false_win = Some(first);
        self.pending &= !(1 << seat);
        self.legal[seat as usize].clear();
        self.run();
    }

    /// A win declared by `seat` on the discard or added kong of a window that closed with
    /// no claim and moved play on ([`Round::closed_window`]): a false one (no seat could
    /// claim), by anyone but the discarder (or konger), except the seat that drew since,
    /// whose declaration is on its own draw.
    fn late_false_win(&self, seat: u8) -> bool {
        self.closed_window.is_some()
            && seat != self.claim_from
            && !(self.phase == Phase::Turn && seat == self.turn)
    }

    /// Restores play to the closed window ([`Round::closed_window`]).
    fn take_back_window(&mut self) {
        let Some(w) = self.closed_window.take() else {
            return;
        };
        self.events.truncate(w.n_events);
        self.wall = w.wall;
        self.seats[w.seat as usize] = w.seat_state;
        self.phase = w.phase;
        self.turn = w.turn;
        self.start = w.start;
        self.drawn = w.drawn;
        self.kong_draw = w.kong_draw;
        self.result = None;
        self.clear_offers();
    }

    /// A seat's place in claim order after the discarder (or konger) of the open window:
    /// 1 for the next seat, 3 for the one before it.
    #[inline]
    fn claim_rank(&self, seat: u8) -> u8 {
        (seat + 4 - self.claim_from) % 4
    }

    /// The waiting false win `f` is the first declaration in claim order: every seat before
    /// it has answered without declaring a win.
    fn false_win_decides(&self, f: u8) -> bool {
        (1..self.claim_rank(f)).all(|k| {
            let s = (self.claim_from + k) % 4;
            self.pending >> s & 1 == 0 && self.responses[s as usize] != Action::Win
        })
    }

    /// B-4: a false declaration ends the hand; the seat pays 10 to each other seat.
    fn penalise_ending(&mut self, seat: u8) {
        for s in 0..4 {
            if s != seat as usize {
                self.penalties[s] += 10;
                self.penalties[seat as usize] -= 10;
            }
        }
        emit!(self, Event::Penalty { seat, each: 10 });
        self.phase = Phase::Over;
        self.pending = 0;
        self.false_win = None;
        self.closed_window = None;
        self.result = Some(crate::round::settlement::RoundResult {
            wins: Vec::new(),
            deltas: self.penalties,
            penalties: self.penalties,
            exhaustive: false,
        });
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
        emit!(self, Event::Penalty { seat, each });
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
    #[inline(always)]
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

    #[inline(always)]
    pub(in crate::round) fn step_turn(&mut self, seat: u8, action: Action) {
        let s = seat as usize;
        self.closed_window = None;
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
                self.ruleset
                    .on_discard(seat, t, &self.seats[s], &self.rules);
                emit!(
                    self,
                    Event::Discard {
                        seat,
                        tile: t,
                        ready,
                    }
                );
                self.open_window(seat, t, false);
                if self.offered == 0 {
                    // No seat has anything to answer: the window closes at once, as
                    // `resolve` would close it; the window's opening cleared the offers.
                    self.close_quiet_window(seat, true);
                }
            }
            _ => self.step_turn_other(seat, action),
        }
    }

    /// [`Round::step_turn`] for a win or a kong.
    #[inline(never)]
    fn step_turn_other(&mut self, seat: u8, action: Action) {
        let s = seat as usize;
        match action {
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
                emit!(self, Event::ConcealedKong { seat, tile: t });
                self.draw_for(seat, true);
            }
            Action::AddedKong(t) => {
                self.seats[s].remove(t, 1);
                self.visible[t as usize] += 1;
                emit!(self, Event::AddedKong { seat, tile: t });
                self.open_window(seat, t, true);
            }
            Action::Discard(_)
            | Action::Ready(_)
            | Action::Chow(_)
            | Action::Pung(_)
            | Action::Kong(_)
            | Action::Pass => {}
        }
    }

    /// Resolves automatic decisions (locked hands) and finished claim windows until a
    /// seat must decide or the hand is over.
    #[inline(always)]
    pub(in crate::round) fn run(&mut self) {
        // The common answers (a seat to decide, nothing automatic) without the loop: a turn
        // of a seat not locked or not after a draw, a window still waiting with no false
        // win declared.
        let waiting = match self.phase {
            Phase::Turn => !self.seats[self.turn as usize].ready || !self.start.drew(),
            Phase::Claim | Phase::RobKong => self.pending != 0 && self.false_win.is_none(),
            Phase::Over => true,
        };
        if !waiting {
            self.run_loop();
        }
    }

    /// [`Round::run`] past its quick answers.
    #[inline(never)]
    fn run_loop(&mut self) {
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
                    if let Some(f) = self.false_win {
                        if self.false_win_decides(f) {
                            self.penalise_ending(f);
                            return;
                        }
                    }
                    if self.pending != 0 {
                        return;
                    }
                    self.resolve();
                }
                Phase::Over => return,
            }
        }
    }
}
