//! Orders: the question a seat is waiting on, the orders that answer it, and their words.

use super::decide::{Answer, Question, TurnChoice};
use super::race::{Race, Rid};
use super::racers::Kind;
use super::{MagicalAthlete, Order, Phase, SyntaxError};
use crate::engine::{Choice, Prompt, Seat};

impl MagicalAthlete {
    pub(super) fn question(&self) -> Option<&Question> {
        self.waiting.as_ref().map(|w| &w.question)
    }

    pub(super) fn waiting_seat(&self) -> Option<Seat> {
        let w = self.waiting.as_ref()?;
        Some(w.base.asker(&w.question))
    }

    /// The race the waiting question is about (the state where it stopped).
    pub(super) fn question_race(&self) -> Option<&Race> {
        self.race.as_deref()
    }

    /// Turns an answer into the order a player would send.
    pub(super) fn order_of(&self, _q: &Question, a: &Answer) -> Order {
        let k = |r: Rid| {
            self.question_race()
                .and_then(|race| race.racers.get(r))
                .map(|x| x.kind)
                .unwrap_or(Kind::Legs)
        };
        match a {
            Answer::Yes => Order::Yes,
            Answer::No => Order::No,
            Answer::NoPower => Order::NoPower,
            Answer::Power(p) => Order::Racer(*p),
            Answer::Racer(r) => Order::Racer(k(*r)),
            Answer::Turn(c) => match c {
                TurnChoice::Roll => Order::Roll,
                TurnChoice::Legs => Order::Legs,
                TurnChoice::Cheer => Order::Cheer,
                TurnChoice::Flip(r) => Order::Flip(k(*r)),
                TurnChoice::Hypnotize(r) => Order::Hypnotize(k(*r)),
                TurnChoice::Guess(g) => Order::Guess(*g),
                TurnChoice::Warp(s) => Order::Warp(*s),
            },
        }
    }

    /// On a turn, the one swap or warp whose target is racer `k`, if there is exactly one.
    pub(super) fn turn_order_naming(&self, k: Kind) -> Option<Order> {
        let Some(Question::Turn { choices, .. }) = self.question() else {
            return None;
        };
        let race = self.question_race()?;
        let is_k = |r: Rid| race.racers.get(r).is_some_and(|x| x.kind == k);
        let mut found = choices.iter().filter_map(|c| match *c {
            TurnChoice::Flip(r) | TurnChoice::Hypnotize(r) if is_k(r) => Some(self.order_of(
                &Question::Turn {
                    racer: 0,
                    choices: Vec::new(),
                },
                &Answer::Turn(*c),
            )),
            _ => None,
        });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// The answer an order gives to the waiting question, if it is one of its choices.
    pub(super) fn answer_of(&self, q: &Question, o: &Order) -> Option<Answer> {
        q.answers().into_iter().find(|a| &self.order_of(q, a) == o)
    }

    /// Every legal order for `seat` now.
    pub(super) fn legal_orders(&self, seat: Seat) -> Vec<Order> {
        match &self.phase {
            Phase::Draft(d) if d.current() == Some(seat) => {
                d.line.iter().map(|&k| Order::Draft(k)).collect()
            }
            Phase::Pick { .. } => {
                let unused = self
                    .players
                    .get(seat.index())
                    .map(super::Player::unused)
                    .unwrap_or_default();
                if self.per_race() == 1 {
                    unused.into_iter().map(|k| Order::Race(vec![k])).collect()
                } else {
                    let mut v = Vec::new();
                    for (i, a) in unused.iter().enumerate() {
                        for b in unused.iter().skip(i + 1) {
                            v.push(Order::Race(vec![*a, *b]));
                        }
                    }
                    v
                }
            }
            Phase::Racing if self.waiting_seat() == Some(seat) => match self.question() {
                Some(q) => q.answers().iter().map(|a| self.order_of(q, a)).collect(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    pub(super) fn pending_seats(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Draft(d) => d.current().into_iter().collect(),
            Phase::Pick { .. } => self.seats(),
            Phase::Racing => self.waiting_seat().into_iter().collect(),
            Phase::Over => Vec::new(),
        }
    }

    pub(super) fn policy_order(&self, seat: Seat) -> Option<Order> {
        let q = self.question()?;
        let race = self.question_race()?;
        let policy = q
            .topic()
            .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
        let a = race.policy_answer(q, policy);
        Some(self.order_of(q, &a))
    }

    pub(super) fn read_kinds(text: &str) -> Result<Vec<Kind>, SyntaxError> {
        let mut out = Vec::new();
        for part in text.split(&[',', '+', '&', ';'][..]).map(str::trim) {
            if part.is_empty() {
                continue;
            }
            match Kind::parse(part) {
                Some(k) => out.push(k),
                None => {
                    // "legs magician": try word by word.
                    let words: Vec<&str> = part.split_whitespace().collect();
                    let mut i = 0;
                    while i < words.len() {
                        let two = words.get(i + 1).map(|w| format!("{} {w}", words[i]));
                        if let Some(k) = two.as_deref().and_then(Kind::parse) {
                            out.push(k);
                            i += 2;
                        } else if let Some(k) = Kind::parse(words[i]) {
                            out.push(k);
                            i += 1;
                        } else {
                            return Err(SyntaxError::UnknownRacer(part.chars().take(40).collect()));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    pub(super) fn question_prompt(&self, seat: Seat) -> Prompt {
        let Some(q) = self.question() else {
            return nothing();
        };
        let Some(race) = self.question_race() else {
            return nothing();
        };
        let racer = q.racer().map(|r| self.racer_name(r)).unwrap_or_default();
        let text = match q {
            Question::Order { only_one, .. } => {
                if *only_one {
                    "Your first turn: which racer moves?".to_string()
                } else {
                    "Your turn: which racer goes first?".to_string()
                }
            }
            Question::Turn { racer: r, choices } => {
                let pos = race.racers.get(*r).map(|x| x.pos).unwrap_or(0);
                let power = race.power(*r).filter(|&p| p.name() != racer);
                match (choices.len() > 1, power) {
                    (false, _) => format!("Your turn: {racer} is on space {pos}. Roll!"),
                    (true, Some(p)) => format!(
                        "Your turn: {racer} is on space {pos}. Roll, or use its power ({})?",
                        p.name()
                    ),
                    (true, None) => {
                        format!("Your turn: {racer} is on space {pos}. Roll, or use its power?")
                    }
                }
            }
            Question::Predict { .. } => format!("{racer}: predict which racer will win."),
            Question::Reroll { roll, power, .. } => {
                if *power == Kind::Magician {
                    format!("{racer} rolled {roll}. Reroll (Magician)?")
                } else {
                    format!("{racer} rolled {roll}. Reroll with the Dicemonger's offer?")
                }
            }
            Question::Double { roll, .. } => {
                format!("{racer} rolled {roll}. Double it to {} and trip?", roll * 2)
            }
            Question::Transmute { roll, .. } => format!("{racer} rolled {roll}. Move 4 instead?"),
            Question::Ride { with, to, .. } => format!(
                "{} is moving off your space to space {to}. Should {racer} ride along?",
                self.racer_name(*with)
            ),
            Question::Duel { with, .. } => format!(
                "{} shares {racer}'s space. Duel? (both roll; the higher moves 2; you win ties)",
                self.racer_name(*with)
            ),
            Question::Copy { .. } => format!("{racer}: the lead is tied. Whom do you copy?"),
            Question::Egg { drawn, .. } => {
                let names: Vec<&str> = drawn.iter().map(|k| k.name()).collect();
                format!("Egg drew {}. Which power do you take?", names.join(" and "))
            }
            Question::Twin { .. } => "Twin: race with the power of a previous winner?".to_string(),
        };
        let choices = self
            .legal_orders(seat)
            .iter()
            .map(|o| Choice::new(self.format(o), self.label(o)))
            .collect();
        Prompt {
            text: super::narrate::tidy(&text),
            choices,
            complete: true,
            hint: "Reply with one of the choices, e.g. `roll`, `yes`, `no` or a racer's name."
                .into(),
        }
    }

    pub(super) fn format(&self, o: &Order) -> String {
        match o {
            Order::Draft(k) => format!("pick {}", k.slug()),
            Order::Race(ks) => format!(
                "race {}",
                ks.iter().map(|k| k.slug()).collect::<Vec<_>>().join(", ")
            ),
            Order::Roll => "roll".into(),
            Order::Legs => "legs".into(),
            Order::Cheer => "cheer".into(),
            Order::Flip(k) => format!("flip {}", k.slug()),
            Order::Hypnotize(k) => format!("hypnotize {}", k.slug()),
            Order::Guess(g) => format!("guess {g}"),
            Order::Warp(s) => format!("warp {s}"),
            Order::Yes => "yes".into(),
            Order::No => "no".into(),
            Order::Racer(k) => k.slug(),
            Order::NoPower => "none".into(),
        }
    }

    pub(super) fn label(&self, o: &Order) -> String {
        match o {
            Order::Draft(k) => k.name().into(),
            Order::Race(ks) => ks.iter().map(|k| k.name()).collect::<Vec<_>>().join(" + "),
            Order::Roll => "Roll".into(),
            Order::Legs => "Move 5".into(),
            Order::Cheer => "Cheer, then roll".into(),
            Order::Flip(k) => format!("Swap with {}", k.name()),
            Order::Hypnotize(k) => format!("Warp {} here", k.name()),
            Order::Guess(g) => format!("Guess {g}"),
            Order::Warp(s) => format!("Warp to {s}"),
            Order::Yes => "Yes".into(),
            Order::No => "No".into(),
            Order::Racer(k) => k.name().into(),
            Order::NoPower => "No power".into(),
        }
    }

    /// The prompt `seat` answers now (nothing when it is not pending).
    pub(super) fn seat_prompt(&self, seat: Seat) -> Prompt {
        if !self.pending_seats().contains(&seat) {
            return nothing();
        }
        match &self.phase {
            Phase::Draft(d) => {
                let line: Vec<&str> = d.line.iter().map(|k| k.name()).collect();
                let won = self
                    .draft_roll_off(d)
                    .map(|rolls| format!(" You won the roll-off ({rolls}): you draft first."))
                    .unwrap_or_default();
                Prompt {
                    text: super::narrate::tidy(&format!(
                        "Draft a racer from the line: {}.{won}{}",
                        line.join(", "),
                        powers(&d.line)
                    )),
                    choices: self
                        .legal_orders(seat)
                        .iter()
                        .map(|o| Choice::new(self.format(o), self.label(o)))
                        .collect(),
                    complete: true,
                    hint: "Reply `pick <racer>`, e.g. `pick legs`.".into(),
                }
            }
            Phase::Pick { race, .. } => {
                let n = self.per_race();
                let hand = self
                    .players
                    .get(seat.index())
                    .map(super::Player::unused)
                    .unwrap_or_default();
                Prompt {
                    text: format!(
                        "Race {race} on {}: choose {} from your hand, in secret.{}",
                        self.options.track_of(*race).name(),
                        if n == 1 { "a racer" } else { "two racers" },
                        powers(&hand)
                    ),
                    choices: self
                        .legal_orders(seat)
                        .iter()
                        .map(|o| Choice::new(self.format(o), self.label(o)))
                        .collect(),
                    complete: true,
                    hint: if n == 1 {
                        "Reply `race <racer>`, e.g. `race legs`.".into()
                    } else {
                        "Reply `race <racer>, <racer>`, e.g. `race legs, banana`.".into()
                    },
                }
            }
            Phase::Racing => self.question_prompt(seat),
            Phase::Over => nothing(),
        }
    }
}

/// One line per offered racer with its printed power, so a player need not know the
/// cards by heart. At most 12 racers of about 200 characters: well inside an embed.
fn powers(kinds: &[Kind]) -> String {
    kinds
        .iter()
        .map(|k| format!("\n• {}: {}", k.name(), k.power_text()))
        .collect()
}

fn nothing() -> Prompt {
    Prompt {
        text: "There is nothing for you to decide right now.".into(),
        choices: Vec::new(),
        complete: false,
        hint: String::new(),
    }
}
