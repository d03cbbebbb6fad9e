//! The deal: dice, the opening hands, the opening flower replacement (G-2), then whatever
//! the rule set does after the deal (an indicator, extra throws).

use super::{Round, TurnStart};
use crate::round::events::Event;
use crate::round::ruleset::RuleSet;
use crate::round::FlowerMode;
use crate::tile::{self, Tile};

impl Round {
    /// Deals the hand and stops at the first decision.
    pub(in crate::round) fn start(&mut self) {
        self.wall.set_reserved(self.rules.table.reserved_tiles);
        if self.opts().private_walls {
            self.wall.make_private();
        }
        let d = self.wall.dice();
        emit!(
            self,
            Event::Dice {
                dice: d.dice,
                break_seat: d.break_seat,
                break_stack: d.break_stack,
            }
        );
        let hands = self.wall.deal();
        let mut held = [[0 as Tile; 8]; 4];
        let mut n_held = [0usize; 4];
        let mut last_in = [0 as Tile; 4];
        for (i, h) in hands.iter().enumerate() {
            let seat = (self.dealer as usize + i) % 4;
            let n = if i == 0 { 14 } else { 13 };
            emit!(
                self,
                Event::Deal {
                    seat: seat as u8,
                    tiles: *h,
                    n: n as u8,
                }
            );
            for &t in &h[..n] {
                if tile::is_flower(t) {
                    held[seat][n_held[seat]] = t;
                    n_held[seat] += 1;
                } else {
                    self.seats[seat].deal(t);
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
                        emit!(
                            self,
                            Event::Flower {
                                seat: seat as u8,
                                tile: f,
                            }
                        );
                        self.seats[seat].push_flower(f);
                    }
                    for _ in 0..k {
                        let Some(t) = self.wall.draw_for_seat(i as u8, true) else {
                            self.exhaustive();
                            return;
                        };
                        emit!(
                            self,
                            Event::Draw {
                                seat: seat as u8,
                                tile: t,
                                tail: true,
                            }
                        );
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
        if let Some(e) = self.ruleset.deal(&mut self.wall, &self.seats, &self.rules) {
            emit!(self, e);
        }
        self.drawn = last_in[self.dealer as usize];
        self.kong_draw = false;
        self.enter_turn(self.dealer, TurnStart::Deal);
        self.run();
    }
}
