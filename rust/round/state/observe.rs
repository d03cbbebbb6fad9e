//! [`Round::observe`]: the one seat view every policy reads.

use super::{Phase, Round};
use crate::hand::{Meld, MeldKind};
use crate::round::actions::ActionList;
use crate::round::observation::Observation;
use crate::round::ruleset::RuleSet;
use crate::round::HIDDEN;
use crate::tile::Tile;

impl Round {
    /// What `seat` (0-3) can see now, with its legal actions. Once the hand is over every
    /// concealed kong is shown.
    pub fn observe(&self, seat: u8) -> Observation {
        let seat = seat & 3;
        let over = self.phase == Phase::Over;
        let mut melds = [[Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4]; 4];
        let mut meld_from = [[0u8; 4]; 4];
        let mut n_melds = [0u8; 4];
        let mut flowers = [[0 as Tile; 8]; 4];
        let mut n_flowers = [0u8; 4];
        let mut hand_sizes = [0u8; 4];
        let mut ready = [false; 4];
        let mut barred = [false; 4];
        for s in 0..4 {
            let st = &self.seats[s];
            melds[s] = st.melds;
            if s != seat as usize && !over {
                for m in melds[s][..st.n_melds as usize].iter_mut() {
                    if m.kind == MeldKind::ConcealedKong {
                        m.tile = HIDDEN;
                    }
                }
            }
            meld_from[s] = st.meld_from;
            n_melds[s] = st.n_melds;
            flowers[s] = st.flowers;
            n_flowers[s] = st.n_flowers;
            hand_sizes[s] = st.n_hand;
            ready[s] = st.ready;
            barred[s] = st.barred;
        }
        let drawn = if self.turn == seat {
            self.drawn()
        } else {
            None
        };
        Observation {
            seat,
            dealer: self.dealer,
            prevalent_wind: self.prevalent,
            phase: self.phase,
            turn: self.turn,
            hand: self.seats[seat as usize].hand,
            drawn,
            melds,
            meld_from,
            n_melds,
            flowers,
            n_flowers,
            hand_sizes,
            ready,
            barred,
            discards: self.discards,
            n_discards: self.n_discards,
            visible: self.visible,
            wall_remaining: self.wall.remaining() as u8,
            claim: self.claim(),
            scores: self.scores,
            legal: if self.pending >> seat & 1 == 1 {
                *self.legal_list(seat)
            } else {
                ActionList::default()
            },
            rules: self.rules.clone(),
            ruleset_view: self.ruleset.seat_view(seat),
        }
    }
}
