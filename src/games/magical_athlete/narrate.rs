//! Every event in words, for the channel (and an Egg's draw for its owner only).

use std::fmt::Write as _;

use super::decide::How;
use super::race::{RaceEvent, TripWhy, Who, Why};
use super::racers::Kind;
use super::{Event, MagicalAthlete};
use crate::engine::{Narration, Seat};

impl MagicalAthlete {
    /// Tells one event in words.
    pub(super) fn narration(&self, event: &Event) -> Narration {
        narrate(self, event)
    }
}

/// Tells one event in words.
fn narrate(game: &MagicalAthlete, event: &Event) -> Narration {
    let name = |s: &Seat| game.name(*s).to_string();
    match event {
        Event::RollOff {
            purpose,
            rolls,
            winner,
        } => {
            let parts: Vec<String> = rolls
                .iter()
                .map(|(s, r)| format!("{} {r}", name(s)))
                .collect();
            Narration::public(format!(
                "Roll-off for {purpose}: {}. {} wins.",
                parts.join(", "),
                name(winner)
            ))
        }
        Event::DraftLine { round, cards } => {
            let names: Vec<&str> = cards.iter().map(|k| k.name()).collect();
            Narration::public(format!(
                "Draft round {round}: the line is {}.",
                names.join(", ")
            ))
        }
        Event::Drafted {
            seat,
            racer,
            missed,
        } => Narration::public(format!(
            "{} drafts {}{}.",
            name(seat),
            racer.name(),
            if *missed {
                " (missed: the first in line)"
            } else {
                ""
            }
        )),
        Event::Revealed {
            race,
            track,
            picks,
            first,
        } => {
            let parts: Vec<String> = picks
                .iter()
                .map(|(s, ks)| {
                    format!(
                        "{} races {}",
                        name(s),
                        ks.iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    )
                })
                .collect();
            Narration::public(format!(
                "Race {race} on {}: {}. {} goes first.",
                track.name(),
                parts.join("; "),
                name(first)
            ))
        }
        Event::Race { event } => narrate_race(game, event),
        Event::Awarded { race, gold, silver } => {
            let mut s = format!("Race {race} is over.");
            if let Some((seat, k, v)) = gold {
                let _ = write!(s, " Gold ({v}) to {} ({}).", name(seat), k.name());
            }
            match silver {
                Some((seat, k, v)) => {
                    let _ = write!(s, " Silver ({v}) to {} ({}).", name(seat), k.name());
                }
                None => s.push_str(" Nobody crossed second: the silver chip is discarded."),
            }
            Narration::public(s)
        }
        Event::GameOver { scores } => {
            let mut sorted = scores.clone();
            sorted.sort_by_key(|(s, v)| (std::cmp::Reverse(*v), *s));
            let parts: Vec<String> = sorted
                .iter()
                .map(|(s, v)| format!("{} {v}", name(s)))
                .collect();
            let top = sorted.first().map(|(_, v)| *v).unwrap_or(0);
            let best: Vec<String> = sorted
                .iter()
                .filter(|(_, v)| *v == top)
                .map(|(s, _)| name(s))
                .collect();
            let verdict = if best.len() > 1 {
                format!("{} tie for the win!", best.join(" and "))
            } else {
                format!("{} wins!", best.join(""))
            };
            Narration::public(format!("Final scores: {}. {verdict}", parts.join(", ")))
        }
    }
}

fn narrate_race(game: &MagicalAthlete, e: &RaceEvent) -> Narration {
    let who = |w: &Who| game.who_text(w);
    let text = match e {
        RaceEvent::TurnStarted {
            racer,
            space,
            extra,
        } => match extra {
            Some(Kind::Genius) => {
                format!("{}'s extra turn (Genius), from space {space}.", who(racer))
            }
            Some(Kind::Skipper) => format!(
                "{} goes next (The Skipper), from space {space}.",
                who(racer)
            ),
            _ => format!("{}'s turn, from space {space}.", who(racer)),
        },
        RaceEvent::Recovered { racer } => {
            format!(
                "{} gets up from a trip and skips the main move.",
                who(racer)
            )
        }
        RaceEvent::Rolled {
            racer,
            value,
            reroll,
        } => match reroll {
            Some(p) => format!("{} rerolls ({}): {value}.", who(racer), p.name()),
            None => format!("{} rolls {value}.", who(racer)),
        },
        RaceEvent::Decided {
            racer,
            question,
            answer,
            how,
        } => {
            let how = match how {
                How::Live => "",
                How::Policy => " (standing policy)",
                How::Default => " (default)",
                How::TimedOut => " (no answer in time: default)",
            };
            if matches!(answer.as_str(), "roll") && how == " (default)" {
                return Narration::nobody();
            }
            format!("{}: {question}? {answer}{how}.", who(racer))
        }
        RaceEvent::Power {
            racer,
            power,
            detail,
        } => {
            if racer.kind == *power {
                format!("{} {detail}.", who(racer))
            } else {
                format!("{} ({}) {detail}.", who(racer), power.name())
            }
        }
        RaceEvent::Moved {
            racer,
            from,
            to,
            why,
        } => format!("{} moves {from} → {to} ({}).", who(racer), why_text(why)),
        RaceEvent::Warped {
            racer,
            from,
            to,
            why,
        } => match why {
            Why::Baby { .. } => {
                format!("{} is put on space {to}, behind Huge Baby.", who(racer))
            }
            _ => format!("{} warps {from} → {to} ({}).", who(racer), why_text(why)),
        },
        RaceEvent::Tripped { racer, why } => tripped_text(&who(racer), why),
        RaceEvent::Chips {
            racer,
            points,
            reason,
        } => chips_text(game.name(racer.seat), *points, reason),
        RaceEvent::DuelRolls {
            duelist,
            duelist_roll,
            other,
            other_roll,
        } => format!(
            "Duel! {} rolls {duelist_roll}, {} rolls {other_roll}.",
            who(duelist),
            who(other)
        ),
        RaceEvent::Finished { racer, place } => {
            format!(
                "{} crosses the finish line: {}!",
                who(racer),
                crate::games::words::ordinal(u32::from(*place))
            )
        }
        RaceEvent::Eliminated { racer, by } => {
            format!("{} is eliminated by {}.", who(racer), who(by))
        }
        RaceEvent::EggDrew { racer, cards } => {
            let names: Vec<&str> = cards.iter().map(|k| k.name()).collect();
            return Narration::to_seat(
                racer.seat,
                format!("Your Egg drew {}.", names.join(" and ")),
            );
        }
        RaceEvent::LoopEnded { task } => format!("That's a loop: it ends here ({task})."),
        RaceEvent::RaceOver { placings, capped } => {
            let names: Vec<String> = placings.iter().map(who).collect();
            race_over_text(&names, *capped)
        }
    };
    Narration::public(text)
}

/// Why a racer moved, in words.
fn why_text(w: &Why) -> String {
    match w {
        Why::MainMove => "main move".to_string(),
        Why::Arrow => "arrow".to_string(),
        Why::Power { racer, power } => {
            if racer.kind == *power {
                format!("{}'s power", racer.kind.name())
            } else {
                format!("{}'s power ({})", racer.kind.name(), power.name())
            }
        }
        Why::Baby { .. } => "Huge Baby".to_string(),
    }
}

fn tripped_text(who: &str, why: &TripWhy) -> String {
    match why {
        TripWhy::Rock => format!("{who} trips on a rock."),
        TripWhy::Power { racer: by, power } => {
            if by.kind == *power {
                format!("{who} trips ({}).", power.name())
            } else {
                format!("{who} trips ({} as {}).", by.kind.name(), power.name())
            }
        }
    }
}

fn chips_text(player: &str, points: i32, reason: &str) -> String {
    if points >= 0 {
        format!("{player} takes {points} bronze point(s): {reason}.")
    } else {
        format!("{player} loses {} bronze point(s): {reason}.", -points)
    }
}

fn race_over_text(names: &[String], capped: bool) -> String {
    format!(
        "The race ends{}: {}.",
        if capped {
            " (turn limit: places by position)"
        } else {
            ""
        },
        if names.is_empty() {
            "nobody finished".to_string()
        } else {
            names.join(", then ")
        }
    )
}
