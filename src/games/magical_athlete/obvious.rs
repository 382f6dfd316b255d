//! Autopilot's obvious answers (docs/rules/magical-athlete.md, *Autopilot*): the few
//! power questions whose answer cannot hurt the mover, so a seat on `auto` is not asked.
//! Each rule is narrow on purpose: on the Wild Wilds or near the finish (arrows, rocks,
//! Stickler) where a space matters, the question is asked.

use super::decide::{Policy, Question, Topic, TurnChoice};
use super::race::Race;
use super::racers::Kind;
use super::track::{FINISH, Track};
use super::{MagicalAthlete, Order, Phase};
use crate::engine::Seat;

/// The spaces of the finish within which a die's size may matter (a roll of 6 with every
/// bonus, and Stickler's exact finish).
const NEAR_FINISH: u8 = 13;

impl MagicalAthlete {
    /// The obvious answer to the question `seat` is asked now, if any.
    pub(super) fn obvious(&self, seat: Seat) -> Option<Order> {
        if self.phase != Phase::Racing || self.waiting_seat() != Some(seat) {
            return None;
        }
        let q = self.question()?;
        let race = self.question_race()?;
        let mover = q.racer()?;
        let me = race.racers.get(mover)?;
        // Only where no space is special and the finish is out of reach.
        let plain = race.track == Track::Mild && me.pos.saturating_add(NEAR_FINISH) < FINISH;
        let power = race.power(mover);
        let answer = match q {
            // Genius: a guess costs nothing and may win a turn; every face is as likely.
            Question::Turn { choices, .. } if guess(choices).is_some() => {
                guess(choices).map(Order::Guess)
            }
            // Flip Flop, Hypnotist: with nobody ahead, a swap or a warp only helps another.
            Question::Turn { choices, .. } if nobody_ahead(race, mover, choices) => {
                Some(Order::Roll)
            }
            // A reroll: a 6 is kept and a 1 rerolled, on a plain stretch, unless the mover's
            // own power wants them (Sisyphus fears a 6, Alchemist turns a 1 into 4).
            Question::Reroll { roll: 6, .. } if plain && power != Some(Kind::Sisyphus) => {
                Some(Order::No)
            }
            Question::Reroll { roll: 1, .. } if plain && power != Some(Kind::Alchemist) => {
                Some(Order::Yes)
            }
            // Alchemist: 4 instead of a 1 or 2, on a plain stretch.
            Question::Transmute { .. } if plain => Some(Order::Yes),
            // Suckerfish: a ride that does not go forward is never taken.
            Question::Ride { to, .. } if race.track == Track::Mild && *to <= me.pos => {
                Some(Order::No)
            }
            _ => None,
        }?;
        self.validate_answer(seat, &answer).then_some(answer)
    }

    /// Under `auto` (option `auto-policies`), a question about a power that asks every
    /// turn is answered by the topic's documented default policy, unless the seat set a
    /// policy (the game then does not ask at all) or `<topic> ask`.
    pub(super) fn auto_policy(&self, seat: Seat) -> Option<(Order, String)> {
        if !self.options.auto_policies || self.phase != Phase::Racing {
            return None;
        }
        if self.waiting_seat() != Some(seat) {
            return None;
        }
        let q = self.question()?;
        let topic = q.topic().filter(|t| EVERY_TURN.contains(t))?;
        let player = self.players.get(seat.index())?;
        if player.asked.contains(&topic) || player.policy(topic).is_some() {
            return None;
        }
        let race = self.question_race()?;
        let order = self.order_of(q, &race.policy_answer(q, None));
        if !self.validate_answer(seat, &order) {
            return None;
        }
        Some((order, Policy::default_for(topic).text()))
    }

    fn validate_answer(&self, seat: Seat, order: &Order) -> bool {
        use crate::engine::Game;
        self.validate(seat, order).is_ok()
    }
}

/// The powers that ask every turn (or every roll): their default policies answer a seat on
/// `auto`. One-off choices (Egg, Twin, Copycat, Mastermind, the double racers' order) are
/// still asked.
pub const EVERY_TURN: [Topic; 12] = [
    Topic::Magician,
    Topic::Dicemonger,
    Topic::Rocket,
    Topic::Alchemist,
    Topic::Genius,
    Topic::Legs,
    Topic::FlipFlop,
    Topic::Hypnotist,
    Topic::ThirdWheel,
    Topic::Cheerleader,
    Topic::Suckerfish,
    Topic::Duelist,
];

/// Genius's guess: 4 when offered (as the default policy), else the first offered.
fn guess(choices: &[TurnChoice]) -> Option<u8> {
    let guesses = || {
        choices.iter().filter_map(|c| match c {
            TurnChoice::Guess(g) => Some(*g),
            _ => None,
        })
    };
    guesses().find(|&g| g == 4).or_else(|| guesses().next())
}

/// The turn offers only rolling, swaps (Flip Flop) and warps (Hypnotist), and every racer
/// they could reach is not ahead of the mover.
fn nobody_ahead(race: &Race, mover: usize, choices: &[TurnChoice]) -> bool {
    let pos = |r: usize| race.racers.get(r).map(|x| x.pos).unwrap_or(0);
    let mine = pos(mover);
    let mut targets = 0;
    for c in choices {
        match *c {
            TurnChoice::Roll => {}
            TurnChoice::Flip(r) | TurnChoice::Hypnotize(r) => {
                if pos(r) > mine {
                    return false;
                }
                targets += 1;
            }
            _ => return false,
        }
    }
    targets > 0 && choices.contains(&TurnChoice::Roll)
}
