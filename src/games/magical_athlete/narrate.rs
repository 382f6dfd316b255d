//! Every event in words, for the channel (and an Egg's draw for its owner only).

use std::fmt::Write as _;

use super::decide::How;
use super::race::{RaceEvent, TURN_QUESTION, TripWhy, Who, Why};
use super::racers::Kind;
use super::{Event, MagicalAthlete};
use crate::engine::{Narration, Seat};
use crate::games::words::{agree, count, possessive};

impl MagicalAthlete {
    /// Tells one event in words.
    pub(super) fn narration(&self, event: &Event) -> Narration {
        let mut n = narrate(self, event);
        n.text = tidy(&n.text);
        n
    }

    /// Tells one step's events, each thing once: a power's line that the move, warp or
    /// trip after it tells again is dropped, and so is a move a Stickler then forbids; a
    /// Leaptoad's jumps are one line; a racer that takes 2nd after 1st is told so.
    pub(super) fn narrations(&self, events: &[Event]) -> Vec<Narration> {
        let race = |e: &Event| match e {
            Event::Race { event } => Some(event.clone()),
            _ => None,
        };
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(e) = events.get(i) {
            i += 1;
            let Some(re) = race(e) else {
                out.push(self.narration(e));
                continue;
            };
            match &re {
                RaceEvent::Power {
                    racer,
                    power: Kind::Leaptoad,
                    ..
                } => {
                    let mut n: i64 = 1;
                    while events.get(i).and_then(race).as_ref() == Some(&re) {
                        n += 1;
                        i += 1;
                    }
                    let spaces = if n == 1 {
                        "a space with a racer on it".to_string()
                    } else {
                        format!("{} with racers on them", count(n, "space"))
                    };
                    let who = possessive_power(&self.who_text(racer), racer.kind, Kind::Leaptoad);
                    out.push(Narration::public(tidy(&format!(
                        "{who} jumps over {spaces}."
                    ))));
                    continue;
                }
                RaceEvent::Power {
                    racer,
                    power,
                    detail,
                } if told_again(events.get(i..).unwrap_or_default(), racer, *power, detail) => {
                    continue;
                }
                // A main move cut to nothing leaves the racer where it was: say so.
                RaceEvent::Power { detail, .. }
                    if detail.starts_with('-')
                        && detail.ends_with("main move")
                        && !main_move_follows(events.get(i..).unwrap_or_default()) =>
                {
                    let mut n = self.narration(e);
                    if let Some(mover) = roller(events.get(..i).unwrap_or_default()) {
                        n.text = format!(
                            "{}, so {} {} not move.",
                            n.text.trim_end_matches('.'),
                            self.who_text(&mover),
                            agree(&self.who_text(&mover), "does")
                        );
                    }
                    out.push(n);
                    continue;
                }
                RaceEvent::Finished { racer, place } => {
                    let before = events.get(..i - 1).unwrap_or_default();
                    let again = before.iter().any(|b| {
                        matches!(race(b), Some(RaceEvent::Finished { racer: r, .. }) if r == *racer)
                    });
                    if again {
                        out.push(Narration::public(tidy(&format!(
                            "{} takes {} place too.",
                            self.who_text(racer),
                            crate::games::words::ordinal(u32::from(*place))
                        ))));
                        continue;
                    }
                }
                _ => {}
            }
            out.push(self.narration(e));
        }
        out
    }
}

/// Whether what a power did (`detail`) is told again by the events after it, so its own
/// line would say it twice: a move, warp or trip it causes names the power; a move that a
/// Stickler then forbids never happened; a Legs or Alchemist move was told by the choice.
fn told_again(after: &[Event], racer: &Who, power: Kind, detail: &str) -> bool {
    let is_move = detail.starts_with("moves ") || detail.contains(" moves ");
    let caused = [
        "trips ",
        "scooches ",
        "warps ",
        "swaps spaces",
        "puts ",
        "rides with ",
    ]
    .iter()
    .any(|p| detail.starts_with(p))
        || is_move;
    if !caused {
        return false;
    }
    let ours =
        |w: &Why| matches!(w, Why::Power { racer: r, power: p } if r == racer && *p == power);
    for e in after {
        let Event::Race { event } = e else { continue };
        match event {
            RaceEvent::TurnStarted { .. } => return false,
            RaceEvent::Moved { why, .. } | RaceEvent::Warped { why, .. } if ours(why) => {
                return true;
            }
            RaceEvent::Warped {
                why: Why::Baby { racer: b },
                ..
            } if power == Kind::HugeBaby && b == racer => return true,
            RaceEvent::Tripped {
                why: TripWhy::Power { racer: r, power: p },
                ..
            } if r == racer && *p == power => return true,
            RaceEvent::Power {
                power: Kind::Stickler,
                ..
            } if is_move => return true,
            // The move Legs or Alchemist makes is the main move, told next.
            RaceEvent::Moved {
                why: Why::MainMove,
                racer: m,
                ..
            } if is_move && m == racer && detail.contains(" instead of ") => return true,
            _ => {}
        }
    }
    false
}

/// Whether a main move (or a Stickler's veto of it) follows, before the next turn.
fn main_move_follows(after: &[Event]) -> bool {
    for e in after {
        match e {
            Event::Race {
                event: RaceEvent::TurnStarted { .. },
            } => return false,
            Event::Race {
                event:
                    RaceEvent::Moved {
                        why: Why::MainMove, ..
                    }
                    | RaceEvent::Power {
                        power: Kind::Stickler,
                        ..
                    },
            } => return true,
            _ => {}
        }
    }
    false
}

/// The racer whose roll is being moved: the last to roll.
fn roller(before: &[Event]) -> Option<Who> {
    before.iter().rev().find_map(|e| match e {
        Event::Race {
            event: RaceEvent::Rolled { racer, .. },
        } => Some(*racer),
        _ => None,
    })
}

/// "Ann's Copycat" with its own power, or "Ann's Copycat, with Legs' power,".
fn possessive_power(who: &str, card: Kind, power: Kind) -> String {
    if card == power {
        who.to_string()
    } else {
        format!("{who}, with {} power,", possessive(called(power)))
    }
}

/// A racer's name inside a sentence: "Skipper", as in "Ann's Skipper", never "The Skipper".
fn called(k: Kind) -> &'static str {
    let name = k.name();
    name.strip_prefix("The ").unwrap_or(name)
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
                .map(|(s, r)| format!("{} {} {r}", name(s), agree(&name(s), "rolls")))
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
            let names: Vec<&str> = cards.iter().map(|k| called(*k)).collect();
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
            called(*racer),
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
                        "{} {} {}",
                        name(s),
                        agree(&name(s), "races"),
                        ks.iter()
                            .map(|k| called(*k))
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
                    let _ = write!(s, " gold ({v}) to {} ({}).", name(seat), called(*k));
                }
                None => s.push_str(" nobody crossed first: the gold chip is discarded."),
            }
            match silver {
                Some((seat, k, v)) => {
                    let _ = write!(s, " Silver ({v}) to {} ({}).", name(seat), called(*k));
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
                .map(|(s, v)| {
                    let n = name(s);
                    format!("{n} {} {}", agree(&n, "has"), count(*v, "point"))
                })
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
            // The Skipper's own line ("goes next") came just before.
            Some(Kind::Skipper) if racer.kind == Kind::Skipper => {
                format!("{} turn, from space {space}.", possessive(&who(racer)))
            }
            Some(Kind::Skipper) => format!(
                "{} turn (Skipper's power), from space {space}.",
                possessive(&who(racer))
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
            Some(p) => format!("{} rerolls ({}): {value}.", who(racer), called(*p)),
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
        } => format!(
            "{} moves {from} → {to} ({}).",
            who(racer),
            why_text(racer, why)
        ),
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
            _ => format!(
                "{} warps {from} → {to} ({}).",
                who(racer),
                why_text(racer, why)
            ),
        },
        RaceEvent::Tripped { racer, why } => tripped_text(&who(racer), racer, why),
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
            let mut names: Vec<String> = placings.iter().map(who).collect();
            // A Mastermind that predicted its own win is 1st and 2nd.
            if let [a, b] = placings.as_slice()
                && a == b
            {
                names = vec![format!("{} (1st and 2nd)", who(a))];
            }
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
    // The stored detail may start with a name or a number ("Legs rolled a 1", "+1 to
    // ..."): a label after a colon, not a verb.
    let label = detail.starts_with(['+', '-']) || detail.starts_with(char::is_uppercase);
    let detail = copied_text(detail).unwrap_or_else(|| {
        detail
            .replace(": that move is skipped", ", so that move is skipped")
            .replace("The Skipper", "Skipper")
    });
    let who = if own {
        who.to_string()
    } else {
        format!("{who}, with {} power,", possessive(called(power)))
    };
    if label {
        format!("{}: {detail}.", who.trim_end_matches(','))
    } else {
        format!("{who} {detail}.")
    }
}

/// "copies Twin (Legs's power)" told without a possessive in brackets: "copies Twin,
/// which races with Legs' power".
fn copied_text(detail: &str) -> Option<String> {
    let rest = detail.strip_prefix("copies ")?;
    let (card, power) = rest.split_once(" (")?;
    let power = power.strip_suffix("'s power)")?;
    Some(format!(
        "copies {}, which races with {} power",
        card.strip_prefix("The ").unwrap_or(card),
        possessive(power.strip_prefix("The ").unwrap_or(power))
    ))
}

/// Why `mover` moved, in words: "main move", "Lackey's power", "Copycat, with Lackey's
/// power" (a borrowed power, said once).
fn why_text(mover: &Who, w: &Why) -> String {
    match w {
        Why::MainMove => "main move".to_string(),
        Why::Arrow => "arrow".to_string(),
        Why::Power { racer, power } => {
            if racer.kind == *power {
                format!("{} power", possessive(called(*power)))
            } else if racer == mover {
                format!("with {} power", possessive(called(*power)))
            } else {
                format!(
                    "{}, with {} power",
                    called(racer.kind),
                    possessive(called(*power))
                )
            }
        }
        Why::Baby { racer } => baby_text(called(racer.kind), racer.kind),
    }
}

fn tripped_text(who: &str, tripped: &Who, why: &TripWhy) -> String {
    match why {
        TripWhy::Rock => format!("{who} trips on a rock."),
        TripWhy::Power { racer: by, power } => {
            if by.kind == *power {
                format!("{who} trips ({}).", called(*power))
            } else if by == tripped {
                format!("{who} trips (with {} power).", possessive(called(*power)))
            } else {
                format!(
                    "{who} trips ({}, with {} power).",
                    called(by.kind),
                    possessive(called(*power))
                )
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
        format!("{player} {} {what}: {reason}.", agree(player, "takes"))
    } else {
        format!("{player} {} {what}: {reason}.", agree(player, "loses"))
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
    // A stored detail may say "Legs's"; the plural takes a bare apostrophe.
    let text = text.replace("Legs's", "Legs'");
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
