//! Closing a claim or robbing window by priority (win > kong = pung > chow; 截和), the melds
//! it makes, and the draws that start the next turn.

use super::{ClosedWindow, Phase, Round, TurnStart};
use crate::hand::{MeldKind, WinKind};
use crate::round::actions::{Action, Claim};
use crate::round::events::Event;
use crate::round::ruleset::RuleSet;
use crate::round::PenaltyMode;
use crate::tile;

impl Round {
    #[inline(always)]
    pub(in crate::round) fn resolve(&mut self) {
        // A false win still waiting here lost to a true one before it (B-4).
        self.false_win = None;
        let from = self.claim_from;
        if self.phase == Phase::Claim && self.responses == [Action::Pass; 4] && self.won == 0 {
            // Nobody was offered a win and nobody claims (the common window).
            self.close_quiet_window(from, false);
            return;
        }
        let t = self.claim_tile;
        let order = [(from + 1) % 4, (from + 2) % 4, (from + 3) % 4];
        // A seat offered a win (its value is kept beside the offer) that did not take it.
        for &s in &order {
            if self.wins[s as usize].is_some() && self.responses[s as usize] != Action::Win {
                self.ruleset.on_declined_win(s, &self.rules);
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
                if let Some(c) = Claim::of(Action::Kong(t), t) {
                    self.claim_meld(from, d, &c);
                }
                self.draw_for(from, true);
            } else {
                self.keep_closed_window(from);
                let st = &mut self.seats[from as usize];
                if let Some(i) = st
                    .melds()
                    .iter()
                    .position(|m| m.kind == MeldKind::Pung && m.tile == t)
                {
                    st.melds[i].kind = MeldKind::Kong;
                    st.pungs &= !(1 << t);
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
            let response = self.responses[s as usize];
            let Some(claim) = Claim::of(response, t) else {
                continue;
            };
            match response {
                Action::Pung(_) => {
                    self.claim_meld(s, from, &claim);
                    emit!(
                        self,
                        Event::Pung {
                            seat: s,
                            from,
                            tile: t,
                        }
                    );
                    self.kong_draw = false;
                    self.enter_turn(s, TurnStart::Pung);
                    return;
                }
                Action::Kong(_) => {
                    emit!(
                        self,
                        Event::Kong {
                            seat: s,
                            from,
                            tile: t,
                        }
                    );
                    if self.ruleset.claimed_kong_robbable(&self.rules) {
                        // The kong may be robbed before it takes the discard, by anyone but
                        // the discarder and the seats that passed a win on it.
                        let passed = order
                            .iter()
                            .filter(|&&x| self.legal[x as usize].contains(Action::Win))
                            .fold(0u8, |m, &x| m | 1 << x);
                        self.rob_discarder = Some(from);
                        self.rob_skip = passed | 1 << from;
                        self.open_window(s, t, true);
                        return;
                    }
                    // Taking the meld records nothing itself, so the event may come first.
                    self.claim_meld(s, from, &claim);
                    self.draw_for(s, true);
                    return;
                }
                _ => {}
            }
        }
        let next = order[0];
        let response = self.responses[next as usize];
        if let (Action::Chow(low), Some(claim)) = (response, Claim::of(response, t)) {
            self.claim_meld(next, from, &claim);
            emit!(
                self,
                Event::Chow {
                    seat: next,
                    from,
                    tile: t,
                    low,
                }
            );
            self.kong_draw = false;
            self.enter_turn(next, TurnStart::Chow);
            return;
        }
        self.keep_closed_window(next);
        self.draw_for(next, false);
    }

    /// Closes the claim window on the discard of `from` that nobody answers: the next seat
    /// draws. `unoffered` when no seat was offered anything in it (nothing to clear).
    #[inline(always)]
    pub(super) fn close_quiet_window(&mut self, from: u8, unoffered: bool) {
        let next = (from + 1) % 4;
        self.keep_closed_window(next);
        self.draw_for_after(next, false, unoffered);
    }

    /// Under `penalty_mode = botzone`, before a window that closed with no claim moves play
    /// on (`seat` draws next): the state a later false win on it takes back.
    #[inline(always)]
    fn keep_closed_window(&mut self, seat: u8) {
        if self.opts().penalty_mode != PenaltyMode::Botzone {
            return;
        }
        self.closed_window = Some(ClosedWindow {
            phase: self.phase,
            n_events: self.events.len(),
            wall: self.wall.clone(),
            seat,
            seat_state: self.seats[seat as usize].clone(),
            turn: self.turn,
            start: self.start,
            drawn: self.drawn,
            kong_draw: self.kong_draw,
        });
    }

    #[inline]
    pub(in crate::round) fn mark_claimed(&mut self) {
        if self.n_discards > 0 {
            self.discards[self.n_discards as usize - 1].claimed = true;
        }
    }

    /// `seat` claims the discard of `from`: the tiles the claim takes leave its hand (and
    /// become visible) and the meld joins its melds.
    #[inline]
    fn claim_meld(&mut self, seat: u8, from: u8, claim: &Claim) {
        self.mark_claimed();
        self.ruleset.on_claim(seat);
        let st = &mut self.seats[seat as usize];
        let bound = st.bound;
        for &(x, n) in claim.taken() {
            st.remove(x, n);
            self.visible[x as usize] += n;
        }
        st.push_meld(claim.meld, from);
        st.keep_bound_after_claim(bound);
    }

    /// Draws for `seat` from the head, or from the tail after a kong (`kong`), setting
    /// flowers aside and replacing them; an empty wall ends the hand.
    #[inline(always)]
    pub(in crate::round) fn draw_for(&mut self, seat: u8, kong: bool) {
        self.draw_for_after(seat, kong, false);
    }

    /// [`Round::draw_for`]; `quiet` as [`Round::enter_turn_after`] takes it.
    #[inline(always)]
    fn draw_for_after(&mut self, seat: u8, kong: bool, quiet: bool) {
        let mut from_tail = kong;
        let t = loop {
            let next = self
                .wall
                .draw_for_seat((seat + 4 - self.dealer) % 4, from_tail);
            let Some(t) = next else {
                self.exhaustive();
                return;
            };
            emit!(
                self,
                Event::Draw {
                    seat,
                    tile: t,
                    tail: from_tail,
                }
            );
            if tile::is_flower(t) {
                emit!(self, Event::Flower { seat, tile: t });
                self.seats[seat as usize].push_flower(t);
                from_tail = true;
                continue;
            }
            break t;
        };
        self.seats[seat as usize].add(t);
        self.ruleset.on_draw(seat, t);
        self.drawn = t;
        self.kong_draw = kong;
        self.enter_turn_after(
            seat,
            if kong {
                TurnStart::Replacement
            } else {
                TurnStart::Draw
            },
            quiet,
        );
    }
}
