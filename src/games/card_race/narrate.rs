//! The card race told in words: one line (or a few) per event, for the channel or for the
//! seat it concerns, and the score text of a round.

use super::cards::{Card, Kind};
use super::state::{CardRace, Event, Line, RoundEnd, RoundResult, RoundScore};
use crate::engine::{DecisionWindow, Narration, Seat};
use crate::games::words::{agree, count, possessive};

impl CardRace {
    /// Tells an event (the `Presentation::narrate` contract); the longer stories have a step each.
    pub(super) fn narration(&self, event: &Event) -> Narration {
        match event {
            Event::RoundStarted {
                round,
                starter,
                cards,
                target,
            } => Narration::public(self.round_started_text(*round, *starter, *cards, *target)),
            Event::Dealt { seat, cards } => {
                Narration::to_seat(*seat, format!("Your hand: {}.", self.hand_text(cards)))
            }
            Event::Drew { seat, cards } => {
                Narration::to_seat(*seat, format!("You draw {}.", self.hand_text(cards)))
            }
            Event::Reshuffled { cards } => Narration::public(format!(
                "The draw pile is empty: the {cards} junked cards are shuffled back into it."
            )),
            Event::Played {
                seat,
                card,
                target,
                distance,
                ..
            } => Narration::public(self.played_text(*seat, *card, *target, *distance)),
            Event::Junked { seat, card, .. } => Narration::public(format!(
                "{} {} {}.",
                self.name(*seat),
                agree(self.name(*seat), "junks"),
                self.card_name(*card),
            )),
            Event::WindowOpened {
                attack,
                team,
                victims,
                next,
                window,
            } => {
                Narration::public(self.window_opened_text(*attack, *team, victims, *next, *window))
            }
            Event::DirtyTrick {
                seat,
                safety,
                attack,
                attacker,
                ..
            } => Narration::public(self.dirty_trick_text(*seat, *safety, *attack, *attacker)),
            Event::WindowClosed {
                seat,
                declined,
                missed,
            } => Narration::public(self.window_closed_text(*seat, *declined, *missed)),
            Event::ExtensionDecided { seat, extend, .. } => {
                Narration::public(self.extension_text(*seat, *extend))
            }
            Event::RoundEnded { result, totals } => {
                Narration::public(self.round_ended_text(result, totals))
            }
            Event::GameEnded { winners, totals } => {
                Narration::public(self.game_ended_text(winners, totals))
            }
        }
    }

    /// A game of one round is a race: "The race begins", not "Round 1 begins".
    fn one_race(&self) -> bool {
        self.options.rounds == 1
    }

    fn round_started_text(&self, round: u32, starter: Seat, cards: usize, target: u32) -> String {
        let begins = if self.one_race() {
            "The race begins".to_string()
        } else {
            format!("Round {round} begins")
        };
        let unit = self.rules().unit;
        let first = self.name(starter);
        // 1000 Yards' rulebook: "reach exactly 1,000 yards"; 1000 miles says the trip.
        if self.rules().yards_names {
            format!(
                "{begins}: {cards} cards. Race to exactly {target} {unit}. {first} plays first."
            )
        } else {
            format!("{begins}: {cards} cards, a trip of {target} {unit}. {first} plays first.")
        }
    }

    /// An attack with its article: "a red light", "an accident"; out of gas, and 1000
    /// Yards' traffic and hungry, take none ("plays out of gas on Bob").
    pub(super) fn attack_text(&self, card: Card) -> String {
        let name = self.card_name(card);
        if card == Card::OutOfGas || (self.rules().yards_names && card == Card::Stop) {
            name.to_string()
        } else {
            a(name)
        }
    }

    fn window_opened_text(
        &self,
        attack: Card,
        team: u8,
        victims: &[Seat],
        next: Option<Seat>,
        window: DecisionWindow,
    ) -> String {
        let names: Vec<&str> = victims.iter().map(|&s| self.name(s)).collect();
        // With two players the victim also plays next: "until Bob plays" would be odd.
        let until = match (next, window.seconds()) {
            (Some(n), Some(secs)) if !victims.contains(&n) => {
                format!("until {} plays or {secs} s pass", self.name(n))
            }
            (Some(n), None) if !victims.contains(&n) => {
                format!("until {} plays or the turn's time runs out", self.name(n))
            }
            (_, Some(secs)) => format!("within {secs} s"),
            (_, None) => "within the turn's time".to_string(),
        };
        format!(
            "{} may answer the {} on {} with a {} {until}.",
            names.join(" or "),
            self.card_name(attack),
            object(self.team_label(team)),
            self.rules().dirty_trick_name
        )
    }

    fn dirty_trick_text(&self, seat: Seat, safety: Card, attack: Card, attacker: Seat) -> String {
        let who = self.name(seat);
        // Mid-sentence the terminal's seat is "your accident", not "Your accident".
        let whose = match possessive(self.name(attacker)).as_str() {
            "Your" => "your".to_string(),
            p => p.to_string(),
        };
        format!(
            "{}! {who} {} {whose} {} with {} (+{}) and {} next.",
            capitalise(self.rules().dirty_trick_name),
            agree(who, "answers"),
            self.card_name(attack),
            self.card_name(safety),
            self.rules().scoring.dirty_trick,
            agree(who, "plays")
        )
    }

    fn window_closed_text(&self, seat: Seat, declined: bool, missed: bool) -> String {
        // 1000 Yards calls attacks trouble.
        let attack = if self.rules().yards_names {
            "trouble"
        } else {
            "attack"
        };
        if declined && missed {
            format!("Time is up: the {attack} stands.")
        } else if declined {
            let who = self.name(seat);
            format!("{who} {} the {attack} stand.", agree(who, "lets"))
        } else {
            let who = self.name(seat);
            format!("{who} {} on: the {attack} stands.", agree(who, "plays"))
        }
    }

    fn extension_text(&self, seat: Seat, extend: bool) -> String {
        if extend {
            format!(
                "{} {} an extension: the trip is now 1000 {}.",
                self.name(seat),
                agree(self.name(seat), "calls"),
                self.rules().unit,
            )
        } else {
            format!(
                "{} {}: the trip is complete.",
                self.name(seat),
                agree(self.name(seat), "stops"),
            )
        }
    }

    fn round_ended_text(&self, result: &RoundResult, totals: &[i64]) -> String {
        let why = match result.ended {
            RoundEnd::Trip { team } if self.rules().yards_names => format!(
                "{} {} {} {}",
                self.team_label(team),
                self.verb(team, "reaches", "reach"),
                self.target,
                self.rules().unit
            ),
            RoundEnd::Trip { team } => format!(
                "{} {} the trip",
                self.team_label(team),
                self.verb(team, "completes", "complete")
            ),
            RoundEnd::NoCards => "a player has no card left".to_string(),
        };
        let ends = if self.one_race() {
            "The race ends".to_string()
        } else {
            format!("Round {} ends", result.round)
        };
        let mut lines = vec![format!("{ends}: {why}.")];
        for sc in &result.scores {
            // In a one-round game the total is the round's score: not said twice.
            let total = totals
                .get(usize::from(sc.team))
                .copied()
                .filter(|_| !self.one_race());
            lines.push(self.score_text(sc, total));
        }
        lines.join("\n")
    }

    /// The verb for a team: "Alice wins", "Alice & Carol win".
    fn verb(&self, team: u8, one: &'static str, many: &'static str) -> &'static str {
        if self.team(team).is_some_and(|t| t.members.len() > 1) {
            many
        } else if agree(&self.team_label(team), one) != one {
            // The terminal's "You" takes the plural form too.
            many
        } else {
            one
        }
    }

    fn game_ended_text(&self, winners: &[u8], totals: &[i64]) -> String {
        let names: Vec<String> = winners.iter().map(|&t| self.team_label(t)).collect();
        let best = winners
            .first()
            .and_then(|&t| totals.get(usize::from(t)))
            .copied()
            .unwrap_or(0);
        match winners {
            [one] => format!(
                "{} {} with {}!",
                self.team_label(*one),
                self.verb(*one, "wins", "win"),
                count(best, "point")
            ),
            _ => format!(
                "{} share the win with {}!",
                names.join(" and "),
                count(best, "point")
            ),
        }
    }

    fn played_text(
        &self,
        seat: Seat,
        card: Card,
        target: Option<u8>,
        distance: Option<u32>,
    ) -> String {
        let who = self.name(seat);
        let plays = agree(who, "plays");
        let name = self.card_name(card);
        match card.kind() {
            Kind::Distance(_) => format!(
                "{who} {plays} {name}: {} {}.",
                distance.unwrap_or(0),
                self.rules().unit
            ),
            Kind::Attack => format!(
                "{who} {plays} {} on {}.",
                self.attack_text(card),
                target
                    .map(|t| object(self.team_label(t)))
                    .unwrap_or_default()
            ),
            Kind::Safety => format!(
                "{who} {plays} {name} ({}) and {plays} again.",
                self.rules().safety_word
            ),
            _ => format!("{who} {plays} {name}."),
        }
    }

    fn line_name(&self, line: Line) -> String {
        let r = self.rules();
        let name = match line {
            Line::Distance => r.unit,
            Line::Safeties => r.safeties_word,
            Line::AllSafeties => return format!("all four {}", r.safeties_word),
            Line::DirtyTricks => r.dirty_tricks_name,
            Line::Trip => "trip completed",
            Line::Delayed => r.delayed_name,
            Line::SafeTrip => "safe trip",
            Line::Extension => "extension",
            Line::Shutout => r.shutout_name,
        };
        name.to_string()
    }

    /// "Alice & Carol: 950 miles + 200 immunities = 1150 (total 2300)"; lines worth 0
    /// are left out ("Bob: 0").
    pub fn score_text(&self, sc: &RoundScore, total: Option<i64>) -> String {
        let parts: Vec<String> = sc
            .lines
            .iter()
            .filter(|l| l.points != 0)
            .map(|l| format!("{} {}", l.points, self.line_name(l.line)))
            .collect();
        let mut s = match parts.as_slice() {
            [] => format!("{}: {}", self.team_label(sc.team), sc.total),
            [_] => format!("{}: {}", self.team_label(sc.team), parts.join("")),
            _ => format!(
                "{}: {} = {}",
                self.team_label(sc.team),
                parts.join(" + "),
                sc.total
            ),
        };
        if let Some(t) = total {
            s.push_str(&format!(" (total {t})"));
        }
        s
    }

    pub(super) fn hand_text(&self, cards: &[Card]) -> String {
        cards
            .iter()
            .map(|&c| self.card_name(c))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A name as a sentence's object: the terminal's seat is "you" ("plays a red light on
/// you"), everyone else as named.
fn object(name: String) -> String {
    if name == "You" { "you".into() } else { name }
}

/// "a red light", "an accident", "a 100".
pub(super) fn a(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiou".contains(c.to_ascii_lowercase()));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
