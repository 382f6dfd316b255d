//! Decisions: the questions a race asks racers' owners, their answers, the standing
//! policies that answer in advance, and the documented defaults.
//!
//! Every optional ("can") power and every choice is a [`Question`]. It is answered by a live
//! answer, or by the owner's standing [`Policy`] (set by DM at any time: with one set the owner
//! is not asked), or by the documented default. How a race reads a policy or the default
//! against the board is the race's own business (`race/ask.rs`).

use serde::{Deserialize, Serialize};

use super::racers::{Kind, Rid};
use crate::engine::Seat;

/// What a mover may do with the main move of a turn (the "your turn" prompt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "do", content = "target")]
pub enum TurnChoice {
    /// Roll for the main move.
    Roll,
    /// Legs: move 5 instead of rolling.
    Legs,
    /// Flip Flop: swap spaces with this racer instead of rolling.
    Flip(Rid),
    /// Genius: guess the roll, then roll.
    Guess(u8),
    /// Hypnotist: warp this racer to my space, then roll.
    Hypnotize(Rid),
    /// Third Wheel: warp to this space, then roll.
    Warp(u8),
    /// Cheerleader: the last racers move 2 and I move 1, then roll.
    Cheer,
}

/// A question for one racer's owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "ask")]
pub enum Question {
    /// Double-racer variants: which racer goes first (`only_one`: which one goes at all,
    /// on a two-player first turn).
    Order {
        seat: Seat,
        racers: Vec<Rid>,
        only_one: bool,
    },
    /// The mover's turn.
    Turn {
        racer: Rid,
        choices: Vec<TurnChoice>,
    },
    /// Mastermind: which racer will win?
    Predict { racer: Rid, candidates: Vec<Rid> },
    /// Magician (up to twice) or the Dicemonger's offer (once): reroll the main move?
    Reroll { racer: Rid, roll: u8, power: Kind },
    /// Rocket Scientist: double the roll (and trip)?
    Double { racer: Rid, roll: u8 },
    /// Alchemist: move 4 instead of the 1 or 2 rolled?
    Transmute { racer: Rid, roll: u8 },
    /// Suckerfish: ride with `with` to space `to`?
    Ride { racer: Rid, with: Rid, to: u8 },
    /// Duelist: duel the racer sharing my space?
    Duel { racer: Rid, with: Rid },
    /// Copycat: which of the tied leaders to copy.
    Copy { racer: Rid, candidates: Vec<Rid> },
    /// Egg: which drawn racer's power to take (hidden from the others).
    Egg { racer: Rid, drawn: Vec<Kind> },
    /// Twin: which previous winner's power to take, if any.
    Twin { racer: Rid, winners: Vec<Kind> },
}

/// An answer to a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "answer", content = "value")]
pub enum Answer {
    Yes,
    No,
    Turn(TurnChoice),
    Racer(Rid),
    Power(Kind),
    /// Twin declines to take a power.
    NoPower,
}

/// How a question was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum How {
    /// The owner answered.
    Live,
    /// The owner's standing policy answered.
    Policy,
    /// Nobody was asked (decision timeout 0, or a turn with no choice): the default.
    Default,
    /// The owner was asked and did not answer in time: the default.
    TimedOut,
}

/// An answer with how it came, kept so a re-run of the turn reads the same answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Given {
    pub answer: Answer,
    pub how: How,
}

impl Question {
    /// The racer the question is about (for `Order`, the first of the seat's racers).
    pub fn racer(&self) -> Option<Rid> {
        match self {
            Question::Order { racers, .. } => racers.first().copied(),
            Question::Turn { racer, .. }
            | Question::Predict { racer, .. }
            | Question::Reroll { racer, .. }
            | Question::Double { racer, .. }
            | Question::Transmute { racer, .. }
            | Question::Ride { racer, .. }
            | Question::Duel { racer, .. }
            | Question::Copy { racer, .. }
            | Question::Egg { racer, .. }
            | Question::Twin { racer, .. } => Some(*racer),
        }
    }

    /// True for the turn's own prompts (which wait a turn's length, not a decision's).
    pub fn is_turn(&self) -> bool {
        matches!(self, Question::Turn { .. } | Question::Order { .. })
    }

    /// Every legal answer.
    pub fn answers(&self) -> Vec<Answer> {
        match self {
            Question::Order { racers, .. } => racers.iter().map(|&r| Answer::Racer(r)).collect(),
            Question::Turn { choices, .. } => choices.iter().map(|&c| Answer::Turn(c)).collect(),
            Question::Predict { candidates, .. } | Question::Copy { candidates, .. } => {
                candidates.iter().map(|&r| Answer::Racer(r)).collect()
            }
            Question::Reroll { .. }
            | Question::Double { .. }
            | Question::Transmute { .. }
            | Question::Ride { .. }
            | Question::Duel { .. } => vec![Answer::Yes, Answer::No],
            Question::Egg { drawn, .. } => drawn.iter().map(|&k| Answer::Power(k)).collect(),
            Question::Twin { winners, .. } => {
                let mut v: Vec<Answer> = winners.iter().map(|&k| Answer::Power(k)).collect();
                v.push(Answer::NoPower);
                v
            }
        }
    }

    pub fn allows(&self, answer: &Answer) -> bool {
        match (self, answer) {
            (Question::Order { racers, .. }, Answer::Racer(r)) => racers.contains(r),
            (Question::Turn { choices, .. }, Answer::Turn(c)) => choices.contains(c),
            (
                Question::Predict { candidates, .. } | Question::Copy { candidates, .. },
                Answer::Racer(r),
            ) => candidates.contains(r),
            (
                Question::Reroll { .. }
                | Question::Double { .. }
                | Question::Transmute { .. }
                | Question::Ride { .. }
                | Question::Duel { .. },
                Answer::Yes | Answer::No,
            ) => true,
            (Question::Egg { drawn, .. }, Answer::Power(k)) => drawn.contains(k),
            (Question::Twin { winners, .. }, Answer::Power(k)) => winners.contains(k),
            (Question::Twin { .. }, Answer::NoPower) => true,
            _ => false,
        }
    }

    /// The topic a standing policy would answer this question under.
    pub fn topic(&self) -> Option<Topic> {
        match self {
            Question::Order { .. } => Some(Topic::Order),
            Question::Turn { choices, .. } => choices.iter().find_map(|c| match c {
                TurnChoice::Roll => None,
                TurnChoice::Legs => Some(Topic::Legs),
                TurnChoice::Flip(_) => Some(Topic::FlipFlop),
                TurnChoice::Guess(_) => Some(Topic::Genius),
                TurnChoice::Hypnotize(_) => Some(Topic::Hypnotist),
                TurnChoice::Warp(_) => Some(Topic::ThirdWheel),
                TurnChoice::Cheer => Some(Topic::Cheerleader),
            }),
            Question::Predict { .. } => Some(Topic::Mastermind),
            Question::Reroll { power, .. } => Some(if *power == Kind::Magician {
                Topic::Magician
            } else {
                Topic::Dicemonger
            }),
            Question::Double { .. } => Some(Topic::Rocket),
            Question::Transmute { .. } => Some(Topic::Alchemist),
            Question::Ride { .. } => Some(Topic::Suckerfish),
            Question::Duel { .. } => Some(Topic::Duelist),
            Question::Copy { .. } => Some(Topic::Copycat),
            Question::Egg { .. } => Some(Topic::Egg),
            Question::Twin { .. } => Some(Topic::Twin),
        }
    }
}

/// What a standing policy is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topic {
    Magician,
    Dicemonger,
    Rocket,
    Alchemist,
    Genius,
    Legs,
    FlipFlop,
    Hypnotist,
    ThirdWheel,
    Cheerleader,
    Suckerfish,
    Duelist,
    Copycat,
    Egg,
    Twin,
    Mastermind,
    Order,
}

impl Topic {
    pub const ALL: [Topic; 17] = [
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
        Topic::Copycat,
        Topic::Egg,
        Topic::Twin,
        Topic::Mastermind,
        Topic::Order,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Topic::Magician => "magician",
            Topic::Dicemonger => "dicemonger",
            Topic::Rocket => "rocket",
            Topic::Alchemist => "alchemist",
            Topic::Genius => "genius",
            Topic::Legs => "legs",
            Topic::FlipFlop => "flipflop",
            Topic::Hypnotist => "hypnotist",
            Topic::ThirdWheel => "thirdwheel",
            Topic::Cheerleader => "cheerleader",
            Topic::Suckerfish => "suckerfish",
            Topic::Duelist => "duelist",
            Topic::Copycat => "copycat",
            Topic::Egg => "egg",
            Topic::Twin => "twin",
            Topic::Mastermind => "mastermind",
            Topic::Order => "order",
        }
    }

    fn read(word: &str) -> Option<Topic> {
        if word == "order" || word == "first" {
            return Some(Topic::Order);
        }
        if word == "reroll" {
            return Some(Topic::Dicemonger);
        }
        let k = Kind::parse(word)?;
        Some(match k {
            Kind::Magician => Topic::Magician,
            Kind::Dicemonger => Topic::Dicemonger,
            Kind::RocketScientist => Topic::Rocket,
            Kind::Alchemist => Topic::Alchemist,
            Kind::Genius => Topic::Genius,
            Kind::Legs => Topic::Legs,
            Kind::FlipFlop => Topic::FlipFlop,
            Kind::Hypnotist => Topic::Hypnotist,
            Kind::ThirdWheel => Topic::ThirdWheel,
            Kind::Cheerleader => Topic::Cheerleader,
            Kind::Suckerfish => Topic::Suckerfish,
            Kind::Duelist => Topic::Duelist,
            Kind::Copycat => Topic::Copycat,
            Kind::Egg => Topic::Egg,
            Kind::Twin => Topic::Twin,
            Kind::Mastermind => Topic::Mastermind,
            _ => return None,
        })
    }
}

/// Whom a targeting power aims at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "aim", content = "value")]
pub enum Aim {
    Never,
    /// The racer in the lead, when it is at least this many spaces ahead of me.
    Leader(u8),
    /// This racer, when it is in the race (and ahead of me); else the leader rule with 1.
    Racer(Kind),
}

/// When Cheerleader cheers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cheer {
    Always,
    Never,
    /// Only when I am in last place myself.
    WhenLast,
}

/// When Suckerfish rides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ride {
    Always,
    Never,
    /// Only when the ride takes me forward.
    Forward,
}

/// Mastermind's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "pick", content = "racer")]
pub enum Predict {
    Me,
    Leader,
    Racer(Kind),
}

/// Which of two racers goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum First {
    Back,
    Front,
}

/// A standing policy: an answer given in advance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "policy", content = "rule")]
pub enum Policy {
    /// Magician: reroll while the roll is below this (1: never).
    Magician(u8),
    /// The Dicemonger's reroll: take it when the roll is below this (1: never).
    Dicemonger(u8),
    /// Rocket Scientist: double rolls of at least this (7: never).
    Rocket(u8),
    Alchemist(bool),
    /// Genius: the guess (`None`: don't guess).
    Genius(Option<u8>),
    Legs(bool),
    FlipFlop(Aim),
    Hypnotist(Aim),
    /// Third Wheel: warp to the pair farthest ahead of me.
    ThirdWheel(bool),
    Cheerleader(Cheer),
    Suckerfish(Ride),
    Duelist(bool),
    /// Copycat: preferred racers, best first (others: the first tied leader in turn order).
    Copycat(Vec<Kind>),
    /// Egg: preferred racers, best first (others: the first card drawn).
    Egg(Vec<Kind>),
    /// Twin: `None` never takes a power; else preferred racers (others: the latest winner).
    Twin(Option<Vec<Kind>>),
    Mastermind(Predict),
    Order(First),
}

impl Policy {
    pub fn topic(&self) -> Topic {
        match self {
            Policy::Magician(_) => Topic::Magician,
            Policy::Dicemonger(_) => Topic::Dicemonger,
            Policy::Rocket(_) => Topic::Rocket,
            Policy::Alchemist(_) => Topic::Alchemist,
            Policy::Genius(_) => Topic::Genius,
            Policy::Legs(_) => Topic::Legs,
            Policy::FlipFlop(_) => Topic::FlipFlop,
            Policy::Hypnotist(_) => Topic::Hypnotist,
            Policy::ThirdWheel(_) => Topic::ThirdWheel,
            Policy::Cheerleader(_) => Topic::Cheerleader,
            Policy::Suckerfish(_) => Topic::Suckerfish,
            Policy::Duelist(_) => Topic::Duelist,
            Policy::Copycat(_) => Topic::Copycat,
            Policy::Egg(_) => Topic::Egg,
            Policy::Twin(_) => Topic::Twin,
            Policy::Mastermind(_) => Topic::Mastermind,
            Policy::Order(_) => Topic::Order,
        }
    }

    /// The documented default for a topic.
    pub fn default_for(topic: Topic) -> Policy {
        match topic {
            Topic::Magician => Policy::Magician(3),
            Topic::Dicemonger => Policy::Dicemonger(3),
            Topic::Rocket => Policy::Rocket(4),
            Topic::Alchemist => Policy::Alchemist(true),
            Topic::Genius => Policy::Genius(Some(4)),
            Topic::Legs => Policy::Legs(true),
            Topic::FlipFlop => Policy::FlipFlop(Aim::Leader(4)),
            Topic::Hypnotist => Policy::Hypnotist(Aim::Leader(1)),
            Topic::ThirdWheel => Policy::ThirdWheel(true),
            Topic::Cheerleader => Policy::Cheerleader(Cheer::WhenLast),
            Topic::Suckerfish => Policy::Suckerfish(Ride::Forward),
            Topic::Duelist => Policy::Duelist(true),
            Topic::Copycat => Policy::Copycat(Vec::new()),
            Topic::Egg => Policy::Egg(Vec::new()),
            Topic::Twin => Policy::Twin(Some(Vec::new())),
            Topic::Mastermind => Policy::Mastermind(Predict::Me),
            Topic::Order => Policy::Order(First::Back),
        }
    }

    /// The policy as the text that sets it.
    pub fn text(&self) -> String {
        let list = |ks: &[Kind]| ks.iter().map(|k| k.slug()).collect::<Vec<_>>().join(", ");
        let aim = |a: &Aim| match a {
            Aim::Never => "never".to_string(),
            Aim::Leader(1) => "leader".to_string(),
            Aim::Leader(n) => format!("gain {n}"),
            Aim::Racer(k) => k.slug(),
        };
        let yn = |b: bool| if b { "always" } else { "never" };
        let t = self.topic().word();
        match self {
            Policy::Magician(1) | Policy::Dicemonger(1) => format!("{t} never"),
            Policy::Magician(n) | Policy::Dicemonger(n) => format!("{t} reroll below {n}"),
            Policy::Rocket(7) => "rocket never".into(),
            Policy::Rocket(1) => "rocket always".into(),
            Policy::Rocket(n) => format!("rocket at least {n}"),
            Policy::Alchemist(b) | Policy::Legs(b) | Policy::ThirdWheel(b) | Policy::Duelist(b) => {
                format!("{t} {}", yn(*b))
            }
            Policy::Genius(Some(n)) => format!("genius guess {n}"),
            Policy::Genius(None) => "genius never".into(),
            Policy::FlipFlop(a) | Policy::Hypnotist(a) => format!("{t} {}", aim(a)),
            Policy::Cheerleader(c) => format!(
                "cheerleader {}",
                match c {
                    Cheer::Always => "always",
                    Cheer::Never => "never",
                    Cheer::WhenLast => "when last",
                }
            ),
            Policy::Suckerfish(r) => format!(
                "suckerfish {}",
                match r {
                    Ride::Always => "always",
                    Ride::Never => "never",
                    Ride::Forward => "forward",
                }
            ),
            Policy::Copycat(ks) | Policy::Egg(ks) | Policy::Twin(Some(ks)) if ks.is_empty() => {
                format!("{t} first")
            }
            Policy::Copycat(ks) | Policy::Egg(ks) | Policy::Twin(Some(ks)) => {
                format!("{t} prefer {}", list(ks))
            }
            Policy::Twin(None) => "twin never".into(),
            Policy::Mastermind(p) => format!(
                "mastermind predict {}",
                match p {
                    Predict::Me => "me".to_string(),
                    Predict::Leader => "leader".to_string(),
                    Predict::Racer(k) => k.slug(),
                }
            ),
            Policy::Order(First::Back) => "order back".into(),
            Policy::Order(First::Front) => "order front".into(),
        }
    }

    /// Explains the policy in a sentence, for confirmations.
    pub fn explain(&self) -> String {
        match self {
            Policy::Magician(1) => "Magician never rerolls".into(),
            Policy::Magician(n) => format!("Magician rerolls any roll below {n} (up to twice)"),
            Policy::Dicemonger(1) => "you never take the Dicemonger's reroll".into(),
            Policy::Dicemonger(n) => {
                format!("you take the Dicemonger's reroll on a roll below {n}")
            }
            Policy::Rocket(7) => "Rocket Scientist never doubles".into(),
            Policy::Rocket(n) => format!("Rocket Scientist doubles any roll of {n} or more"),
            Policy::Alchemist(true) => "Alchemist always moves 4 on a 1 or 2".into(),
            Policy::Alchemist(false) => "Alchemist never transmutes".into(),
            Policy::Genius(Some(n)) => format!("Genius always guesses {n}"),
            Policy::Genius(None) => "Genius never guesses".into(),
            Policy::Legs(true) => "Legs always moves 5".into(),
            Policy::Legs(false) => "Legs always rolls".into(),
            Policy::FlipFlop(a) => format!("Flip Flop {}", aim_words(a, "swaps with")),
            Policy::Hypnotist(a) => format!("Hypnotist {}", aim_words(a, "warps")),
            Policy::ThirdWheel(true) => {
                "Third Wheel warps to the pair farthest ahead, when it is ahead".into()
            }
            Policy::ThirdWheel(false) => "Third Wheel never warps".into(),
            Policy::Cheerleader(Cheer::Always) => "Cheerleader always cheers".into(),
            Policy::Cheerleader(Cheer::Never) => "Cheerleader never cheers".into(),
            Policy::Cheerleader(Cheer::WhenLast) => {
                "Cheerleader cheers only when she is in last place".into()
            }
            Policy::Suckerfish(Ride::Always) => "Suckerfish always rides".into(),
            Policy::Suckerfish(Ride::Never) => "Suckerfish never rides".into(),
            Policy::Suckerfish(Ride::Forward) => "Suckerfish rides whenever it goes forward".into(),
            Policy::Duelist(true) => "Duelist always duels".into(),
            Policy::Duelist(false) => "Duelist never duels".into(),
            Policy::Copycat(ks) | Policy::Egg(ks) | Policy::Twin(Some(ks)) => {
                let who = match self {
                    Policy::Copycat(_) => "Copycat copies",
                    Policy::Egg(_) => "Egg picks",
                    _ => "Twin takes",
                };
                if ks.is_empty() {
                    format!("{who} by the default rule")
                } else {
                    let names: Vec<&str> = ks.iter().map(|k| k.name()).collect();
                    format!("{who} the first of {} it can", names.join(", "))
                }
            }
            Policy::Twin(None) => "Twin never takes a power".into(),
            Policy::Mastermind(Predict::Me) => "Mastermind predicts himself".into(),
            Policy::Mastermind(Predict::Leader) => "Mastermind predicts the leader".into(),
            Policy::Mastermind(Predict::Racer(k)) => {
                format!("Mastermind predicts {} when it races", k.name())
            }
            Policy::Order(First::Back) => "your racer farther back goes first".into(),
            Policy::Order(First::Front) => "your racer farther ahead goes first".into(),
        }
    }
}

fn aim_words(a: &Aim, verb: &str) -> String {
    match a {
        Aim::Never => "never".into(),
        Aim::Leader(1) => format!("{verb} the leader when it is ahead"),
        Aim::Leader(n) => format!("{verb} the leader when it is {n}+ spaces ahead"),
        Aim::Racer(k) => format!("{verb} {} when it is ahead", k.name()),
    }
}

/// Reads policy text. `Ok(None)` clears the topic's policy (`<topic> ask`).
pub fn parse_policy(text: &str) -> Result<(Topic, Option<Policy>), String> {
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let (topic, rest) = read_topic(&words)?;
    if rest == ["ask"] || rest == ["clear"] {
        return Ok((topic, None));
    }
    match read_policy(topic, rest) {
        Some(policy) => Ok((topic, Some(policy))),
        None => Err(format!(
            "I couldn't read that {} policy; try `{}`",
            topic.word(),
            example(topic)
        )),
    }
}

/// The topic the words start with (one word, or two written apart), and the rest.
fn read_topic<'a, 'w>(words: &'a [&'w str]) -> Result<(Topic, &'a [&'w str]), String> {
    let (topic, rest) = match words {
        [] => return Err("write a policy, like `magician reroll below 3`".into()),
        [a, b, rest @ ..] if Topic::read(&format!("{a}{b}")).is_some() => {
            (Topic::read(&format!("{a}{b}")), rest)
        }
        [a, rest @ ..] => (Topic::read(a), rest),
    };
    let Some(topic) = topic else {
        return Err(format!(
            "`{}` has no policy; policies are for: {}",
            words.first().copied().unwrap_or(""),
            Topic::ALL
                .iter()
                .map(|t| t.word())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    Ok((topic, rest))
}

fn num(w: &str) -> Option<u8> {
    w.trim_end_matches('+').parse::<u8>().ok()
}

fn kinds(ws: &[&str]) -> Option<Vec<Kind>> {
    let joined = ws.join(" ");
    joined
        .split(&[',', ' '][..])
        .filter(|w| !w.is_empty())
        .map(Kind::parse)
        .collect()
}

/// A topic's policy from the words after the topic, or `None` when they don't read.
fn read_policy(topic: Topic, rest: &[&str]) -> Option<Policy> {
    let policy = match (topic, rest) {
        (Topic::Magician | Topic::Dicemonger, ["never"]) => mk_reroll(topic, 1),
        (Topic::Magician | Topic::Dicemonger, ["always"]) => mk_reroll(topic, 7),
        (Topic::Magician | Topic::Dicemonger, [.., "below", n]) => match num(n) {
            Some(n @ 1..=7) => mk_reroll(topic, n),
            _ => return None,
        },
        (Topic::Rocket, ["never"]) => Policy::Rocket(7),
        (Topic::Rocket, ["always"]) => Policy::Rocket(1),
        (Topic::Rocket, [.., n]) => match num(n) {
            Some(n @ 1..=7) => Policy::Rocket(n),
            _ => return None,
        },
        (Topic::Alchemist | Topic::Legs | Topic::ThirdWheel | Topic::Duelist, [w]) => {
            let b = match *w {
                "always" | "yes" | "on" => true,
                "never" | "no" | "off" => false,
                _ => return None,
            };
            match topic {
                Topic::Alchemist => Policy::Alchemist(b),
                Topic::Legs => Policy::Legs(b),
                Topic::ThirdWheel => Policy::ThirdWheel(b),
                _ => Policy::Duelist(b),
            }
        }
        (Topic::Genius, ["never"]) => Policy::Genius(None),
        (Topic::Genius, [.., n]) => match num(n) {
            Some(n @ 1..=6) => Policy::Genius(Some(n)),
            _ => return None,
        },
        (Topic::FlipFlop | Topic::Hypnotist, ws) => {
            let aim = match ws {
                ["never"] => Aim::Never,
                ["leader"] | ["with", "the", "leader"] | ["the", "leader"] => Aim::Leader(1),
                ["gain", n] => match num(n) {
                    Some(n @ 1..=29) => Aim::Leader(n),
                    _ => return None,
                },
                [w] => match Kind::parse(w) {
                    Some(k) => Aim::Racer(k),
                    None => return None,
                },
                _ => return None,
            };
            if topic == Topic::FlipFlop {
                Policy::FlipFlop(aim)
            } else {
                Policy::Hypnotist(aim)
            }
        }
        (Topic::Cheerleader, ["always"]) => Policy::Cheerleader(Cheer::Always),
        (Topic::Cheerleader, ["never"]) => Policy::Cheerleader(Cheer::Never),
        (Topic::Cheerleader, ["when", "last"] | ["last"]) => Policy::Cheerleader(Cheer::WhenLast),
        (Topic::Suckerfish, ["always"]) => Policy::Suckerfish(Ride::Always),
        (Topic::Suckerfish, ["never"]) => Policy::Suckerfish(Ride::Never),
        (Topic::Suckerfish, ["forward"]) => Policy::Suckerfish(Ride::Forward),
        (Topic::Copycat | Topic::Egg | Topic::Twin, ["first"]) => list_policy(topic, Vec::new()),
        (Topic::Twin, ["never"]) => Policy::Twin(None),
        (Topic::Twin, ["latest"]) => Policy::Twin(Some(Vec::new())),
        (Topic::Copycat | Topic::Egg | Topic::Twin, ["prefer", ws @ ..]) if !ws.is_empty() => {
            match kinds(ws) {
                Some(ks) => list_policy(topic, ks),
                None => return None,
            }
        }
        (Topic::Mastermind, [.., "me" | "myself"]) => Policy::Mastermind(Predict::Me),
        (Topic::Mastermind, [.., "leader"]) => Policy::Mastermind(Predict::Leader),
        (Topic::Mastermind, ["predict", w]) => match Kind::parse(w) {
            Some(k) => Policy::Mastermind(Predict::Racer(k)),
            None => return None,
        },
        (Topic::Order, ["back" | "behind"]) => Policy::Order(First::Back),
        (Topic::Order, ["front" | "ahead"]) => Policy::Order(First::Front),
        _ => return None,
    };
    Some(policy)
}

fn mk_reroll(topic: Topic, n: u8) -> Policy {
    if topic == Topic::Magician {
        Policy::Magician(n)
    } else {
        Policy::Dicemonger(n)
    }
}

fn list_policy(topic: Topic, ks: Vec<Kind>) -> Policy {
    match topic {
        Topic::Copycat => Policy::Copycat(ks),
        Topic::Egg => Policy::Egg(ks),
        _ => Policy::Twin(Some(ks)),
    }
}

/// An example policy for each topic.
pub fn example(topic: Topic) -> &'static str {
    match topic {
        Topic::Magician => "magician reroll below 3",
        Topic::Dicemonger => "dicemonger reroll below 3",
        Topic::Rocket => "rocket at least 4",
        Topic::Alchemist => "alchemist always",
        Topic::Genius => "genius guess 4",
        Topic::Legs => "legs always",
        Topic::FlipFlop => "flipflop leader",
        Topic::Hypnotist => "hypnotist leader",
        Topic::ThirdWheel => "thirdwheel always",
        Topic::Cheerleader => "cheerleader when last",
        Topic::Suckerfish => "suckerfish forward",
        Topic::Duelist => "duelist always",
        Topic::Copycat => "copycat prefer legs, magician",
        Topic::Egg => "egg prefer legs, magician",
        Topic::Twin => "twin prefer legs",
        Topic::Mastermind => "mastermind predict me",
        Topic::Order => "order back",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_read_and_print_back() {
        for text in [
            "magician reroll below 3",
            "magician never",
            "dicemonger reroll below 2",
            "rocket never",
            "rocket always",
            "rocket at least 5",
            "alchemist never",
            "genius guess 4",
            "genius never",
            "legs never",
            "flipflop leader",
            "flipflop gain 6",
            "flipflop never",
            "flipflop banana",
            "hypnotist leader",
            "thirdwheel never",
            "cheerleader when last",
            "cheerleader always",
            "suckerfish forward",
            "duelist never",
            "copycat prefer legs, magician",
            "egg prefer huge baby, legs",
            "twin never",
            "twin prefer legs",
            "mastermind predict me",
            "mastermind predict leader",
            "mastermind predict banana",
            "order front",
        ] {
            let (topic, p) = parse_policy(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let p = p.unwrap();
            assert_eq!(p.topic(), topic);
            let (_, again) = parse_policy(&p.text()).unwrap();
            assert_eq!(again, Some(p.clone()), "{text} -> {}", p.text());
            assert!(!p.explain().is_empty());
        }
    }

    #[test]
    fn policy_aliases_and_errors() {
        assert_eq!(
            parse_policy("Flip Flop with the leader").unwrap().1,
            Some(Policy::FlipFlop(Aim::Leader(1)))
        );
        assert_eq!(
            parse_policy("reroll below 3").unwrap().1,
            Some(Policy::Dicemonger(3))
        );
        assert_eq!(
            parse_policy("Rocket Scientist never").unwrap().1,
            Some(Policy::Rocket(7))
        );
        assert_eq!(parse_policy("genius ask").unwrap(), (Topic::Genius, None));
        assert!(
            parse_policy("banana always")
                .unwrap_err()
                .contains("has no policy")
        );
        assert!(
            parse_policy("genius guess 9")
                .unwrap_err()
                .contains("genius guess 4")
        );
        assert!(parse_policy("").is_err());
    }
}
