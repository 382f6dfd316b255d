//! Every event in words, for the channel (and an Egg's draw for its owner only).

use std::fmt::Write as _;

use super::decide::How;
use super::race::{RaceEvent, TURN_QUESTION, TripWhy, Who, Why};
use super::racers::Kind;
use super::{Event, MagicalAthlete};
use crate::engine::{Narration, Seat};
use crate::games::words::{agree, possessive};

impl MagicalAthlete {
    /// Tells one event in words.
    pub(super) fn narration(&self, event: &Event) -> Narration {
        let mut n = narrate(self, event);
        n.text = tidy(&n.text);
        n
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
            Narration::public(match winner {
                Some(w) => format!(
                    "Roll-off for {purpose}: {}. {} {}.",
                    parts.join(", "),
                    name(w),
                    agree(&name(w), "wins")
                ),
                None => format!(
                    "Roll-off for {purpose}: {}. A tie: everyone rolls again.",
                    parts.join(", ")
                ),
            })
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
            "{} {} {}{}.",
            name(seat),
            agree(&name(seat), "drafts"),
            racer.name(),
            if *missed {
                " (no pick in time: the first in line)"
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
                "Race {race} on {}: {}. {} {} first.",
                track.name(),
                parts.join("; "),
                name(first),
                agree(&name(first), "goes")
            ))
        }
        Event::Race { event } => narrate_race(game, event),
        Event::Awarded { race, gold, silver } => {
            let mut s = format!("Race {race} chips:");
            match gold {
                Some((seat, k, v)) => {
                    let _ = write!(s, " gold ({v}) to {} ({}).", name(seat), k.name());
                }
                None => s.push_str(" nobody crossed first: the gold chip is discarded."),
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
                format!("{} tie for the win!", and_list(&best))
            } else {
                let one = best.join("");
                format!("{one} {}!", agree(&one, "wins"))
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
                format!(
                    "{} extra turn (Genius), from space {space}.",
                    possessive(&who(racer))
                )
            }
            Some(Kind::Skipper) => format!(
                "{} goes next (The Skipper), from space {space}.",
                who(racer)
            ),
            _ => format!("{} turn, from space {space}.", possessive(&who(racer))),
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
            Some(p) if *p == racer.kind => format!("{} rerolls: {value}.", who(racer)),
            Some(p) => format!("{} rerolls ({}): {value}.", who(racer), p.name()),
            None => format!("{} rolls {value}.", who(racer)),
        },
        RaceEvent::Decided {
            racer,
            question,
            answer,
            how,
        } => match decided_text(&who(racer), question, answer, *how) {
            Some(text) => text,
            None => return Narration::nobody(),
        },
        RaceEvent::Power {
            racer,
            power,
            detail,
        } => power_text(&who(racer), racer.kind == *power, *power, detail),
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
            Why::Baby { racer: baby } => {
                format!(
                    "{} is put on space {to}, behind {}.",
                    who(racer),
                    baby_text(&who(baby), baby.kind)
                )
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

/// A decision, or nothing when a default roll would only repeat the roll that follows.
fn decided_text(who: &str, question: &str, answer: &str, how: How) -> Option<String> {
    let how = match how {
        How::Live => "",
        How::Policy => " (standing policy)",
        How::Default => " (default)",
        How::TimedOut => " (no answer in time: default)",
    };
    if answer == "roll" && how == " (default)" {
        return None;
    }
    Some(if question == TURN_QUESTION {
        format!("{who} chooses: {answer}{how}.")
    } else {
        format!("{who}: {question}? {answer}{how}.")
    })
}

/// A power at work; a borrowed power (Copycat, Egg, Twin) is named.
fn power_text(who: &str, own: bool, power: Kind, detail: &str) -> String {
    // "+1 to Legs's main move" reads as a label, not a verb.
    let sep = if detail.starts_with(['+', '-']) {
        ": "
    } else {
        " "
    };
    if own {
        format!("{who}{sep}{detail}.")
    } else {
        format!("{who} ({}){sep}{detail}.", power.name())
    }
}

/// Why a racer moved, in words.
fn why_text(w: &Why) -> String {
    match w {
        Why::MainMove => "main move".to_string(),
        Why::Arrow => "arrow".to_string(),
        Why::Power { racer, power } => {
            if racer.kind == *power {
                format!("{} power", possessive(racer.kind.name()))
            } else {
                format!("{} power ({})", possessive(racer.kind.name()), power.name())
            }
        }
        Why::Baby { racer } => baby_text(racer.kind.name(), racer.kind),
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
    let n = points.unsigned_abs();
    let what = if n == 1 {
        "1 bronze point".to_string()
    } else {
        format!("{n} bronze points")
    };
    if points >= 0 {
        format!("{player} takes {what}: {reason}.")
    } else {
        format!("{player} loses {what}: {reason}.")
    }
}

/// The racer that put another behind it: Huge Baby, or a racer holding her power.
fn baby_text(who: &str, kind: Kind) -> String {
    if kind == Kind::HugeBaby {
        who.to_string()
    } else {
        format!("{who} (Huge Baby's power)")
    }
}

/// "A", "A and B", "A, B and C".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One period at the end of a name that ends in one (M.O.U.T.H.): "by M.O.U.T.H.." reads
/// "by M.O.U.T.H.". Runs of three (an ellipsis) stay.
pub(super) fn tidy(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let before = i.checked_sub(2).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        if c == '.' && prev == Some('.') && before != Some('.') && next != Some('.') {
            continue;
        }
        out.push(c);
    }
    out
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
