//! What each seat is asked: the prompt with its choices (buttons), the step's label and
//! the help that tells how to write an order (docs/rules/1500m.md).

use super::order::{Action, Order, PaceIntent};
use super::path::{self, Aim, Intent};
use super::rules::{BASE_PACE, TOP_BID};
use super::state::{FifteenHundred, Step};
use crate::engine::{Choice, Game, Prompt, Seat};

/// A prompt's parts before the help is added: its text, its choices, and whether the
/// choices are every legal answer.
struct Asking {
    text: String,
    choices: Vec<Choice>,
    complete: bool,
}

/// The seat's runner as a prompt shows it.
struct Seen {
    i: usize,
    name: String,
    strength: u16,
    pace: u8,
    hand: Vec<u8>,
}

/// Moves offered as buttons: more would not fit a message.
const MOST_MOVES: usize = 12;

impl FifteenHundred {
    /// [`crate::engine::Game::prompt`]: the question of the step, for `seat`.
    pub(super) fn prompt_for(&self, seat: Seat) -> Prompt {
        let i = seat.index();
        let r = self.runner(i);
        let me = Seen {
            i,
            name: self.name(i).to_string(),
            strength: r.map_or(0, |r| r.strength),
            pace: r.map_or(BASE_PACE, |r| r.pace),
            hand: r.map(|r| r.hand.clone()).unwrap_or_default(),
        };
        let asking = match self.step {
            Step::Orders => self.ask_round_order(seat, &me),
            Step::Bids => self.ask_card_and_bid(seat, &me),
            Step::Action => self.ask_action(seat, &me),
            Step::Move => self.ask_move(seat, &me),
            Step::Pace => self.ask_pace(seat, &me),
            Step::Over => Asking {
                text: "The race is over.".into(),
                choices: Vec::new(),
                complete: false,
            },
        };
        Prompt {
            text: asking.text,
            choices: asking.choices,
            complete: asking.complete,
            hint: self.prompt_hint(),
        }
    }

    /// Play by orders: a card with a low bid at an affordable pace, or a higher bid a pace up.
    fn ask_round_order(&self, seat: Seat, me: &Seen) -> Asking {
        let mut choices = Vec::new();
        for &card in &me.hand {
            for (bid, p) in [(1u8, PaceIntent::Afford), (3, PaceIntent::Up)] {
                let mut o = self.default_round_order(me.i);
                o.card = card;
                if o.bid.is_some() {
                    o.bid = Some(bid.min(u8::try_from(me.strength).unwrap_or(TOP_BID)));
                }
                o.pace = p;
                if self.check_round_order(me.i, &o).is_err() {
                    continue;
                }
                let label = format!(
                    "Card {card}{}, {}",
                    o.bid.map_or(String::new(), |b| format!(", bid {b}")),
                    if p == PaceIntent::Up {
                        "pace +1"
                    } else {
                        "keep pace"
                    }
                );
                choices.push(Choice::new(
                    self.format_order(seat, &Order::Round(o)),
                    label,
                ));
            }
        }
        Asking {
            text: format!(
                "Round {}: {} order ({} mental strength, pace {}, cards {}).",
                self.round,
                crate::games::words::possessive(&me.name),
                me.strength,
                me.pace,
                join(&me.hand)
            ),
            choices,
            complete: false,
        }
    }

    /// Live play: every card with every bid the runner can pay.
    fn ask_card_and_bid(&self, seat: Seat, me: &Seen) -> Asking {
        let bids: Vec<Option<u8>> = if me.strength == 0 {
            vec![None]
        } else {
            (1..=TOP_BID.min(u8::try_from(me.strength).unwrap_or(TOP_BID)))
                .map(Some)
                .collect()
        };
        let mut choices = Vec::new();
        for &card in &me.hand {
            for &bid in &bids {
                let o = Order::Bid { card, bid };
                let label = match bid {
                    Some(b) => format!("Card {card}, bid {b}"),
                    None => format!("Card {card}"),
                };
                choices.push(
                    Choice::new(self.format_order(seat, &o), label).grouped(format!("card {card}")),
                );
            }
        }
        Asking {
            text: format!(
                "Round {}: {}, choose a movement card and a bid card ({} mental strength).",
                self.round, me.name, me.strength
            ),
            choices,
            complete: true,
        }
    }

    /// Live play: every action still free, or none.
    fn ask_action(&self, seat: Seat, me: &Seen) -> Asking {
        let taken = self.taken();
        let mut choices = Vec::new();
        for a in Action::ALL {
            if !taken.contains(&a) {
                choices.push(Choice::new(
                    self.format_order(seat, &Order::Action { action: Some(a) }),
                    a.title(),
                ));
            }
        }
        choices.push(Choice::new(
            self.format_order(seat, &Order::Action { action: None }),
            "No action",
        ));
        Asking {
            text: format!("Round {}: {}, choose your action.", self.round, me.name),
            choices,
            complete: true,
        }
    }

    /// Live play: the best spaces the cards-phase points reach.
    fn ask_move(&self, seat: Seat, me: &Seen) -> Asking {
        let points = self.cards_points_after_penalty(me.i);
        let mut choices = Vec::new();
        let mut complete = false;
        if let Some(spot) = self.runner(me.i).map(|r| r.spot) {
            let reach = path::reachable(
                &self.course,
                spot,
                points,
                &self.occupied(me.i),
                self.moves_first(me.i),
            );
            let ranked = path::ranked(&self.course, reach, None);
            complete = ranked.len() <= MOST_MOVES;
            for rc in ranked.iter().take(MOST_MOVES) {
                let intent = Intent {
                    aim: Aim::To {
                        lane: rc.spot.lane,
                        pos: rc.spot.pos,
                        finish: self.course.on_finish_straight(rc.spot),
                    },
                    max_lane: None,
                };
                choices.push(Choice::new(
                    self.format_order(seat, &Order::Move { intent }),
                    format!("{} (cost {})", self.course.describe(rc.spot), rc.cost),
                ));
            }
        }
        Asking {
            text: format!(
                "Round {}: {}, move with {points} points.",
                self.round, me.name
            ),
            choices,
            complete,
        }
    }

    /// Live play: every level the runner may choose, each moving as far as it can.
    fn ask_pace(&self, seat: Seat, me: &Seen) -> Asking {
        let pace = me.pace;
        let top = self.options.top_pace();
        let mut choices = Vec::new();
        for level in BASE_PACE..=pace.saturating_add(1).min(top) {
            let o = Order::Pace {
                pace: PaceIntent::Level(level),
                intent: Intent::farthest(),
            };
            choices.push(Choice::new(
                self.format_order(seat, &o),
                format!(
                    "Pace {level} (costs {})",
                    self.options.pace_change_cost(pace, level)
                ),
            ));
        }
        Asking {
            text: format!(
                "Round {}: {}, choose your pace (now {pace}, {} mental strength) and move.",
                self.round, me.name, me.strength
            ),
            choices,
            complete: false,
        }
    }

    pub(super) fn label(&self) -> String {
        match self.step {
            Step::Orders => format!("Round {}: orders", self.round),
            Step::Bids => format!("Round {}: movement cards and bids", self.round),
            Step::Action => format!(
                "Round {}: {}'s action",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Move => format!(
                "Round {}: {}'s move",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Pace => format!(
                "Round {}: {}'s pace",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Over => "Race over".into(),
        }
    }

    /// The prompt's line on typing an order: the whole grammar in the first round, then
    /// one example (a refused order, and `help`, still give every part).
    fn prompt_hint(&self) -> String {
        match self.step {
            Step::Orders if self.round > 1 => "Type the round's order as before, e.g. \
                `card 10 bid 3 actions first,move3,safe4 pace +1 move farthest`; \
                a wrong order is answered with every part."
                .into(),
            _ => self.hint().to_string(),
        }
    }

    pub(super) fn hint(&self) -> &'static str {
        match self.step {
            Step::Orders => {
                "Order the whole round in one message, parts in any order, each optional: \
                card 8-11 (from your hand); bid 1-8 (at most your mental strength); \
                actions in order of preference from safe3, safe4, move2, move3, first, pace1, pace2 \
                (end with none to refuse the leftovers); pace keep, afford, +1, -N or a level; \
                move farthest, a number of points or none, optionally with lane<=K (both phases); \
                then ... (the pace-phase move, if different). \
                Example: card 10 bid 3 actions first,move3,safe4 pace +1 move farthest"
            }
            Step::Bids => {
                "Send your movement card and bid card, e.g. `card 10 bid 3` \
                (at 0 mental strength: just `card 10`)."
            }
            Step::Action => "Send the action you take, e.g. `action move3`, or `action none`.",
            Step::Move => {
                "Send `move farthest`, `move N` (at most N points), `move to 3:17`, \
                optionally with lane<=K."
            }
            Step::Pace => {
                "Send your pace and move, e.g. `pace +1 move farthest`; pace is keep, \
                afford, +1, -N or a level."
            }
            Step::Over => "The race is over.",
        }
    }
}

fn join(cards: &[u8]) -> String {
    cards
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
