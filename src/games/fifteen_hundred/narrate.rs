//! The narration of each event, as the channel reads it.

use std::cmp::Ordering;

use super::board::Spot;
use super::state::{CostReason, Event, FifteenHundred, Phase};
use crate::engine::Narration;
use crate::games::words::{agree, count, ordinal};

fn medal(place: u8) -> &'static str {
    match place {
        1 => " (gold)",
        2 => " (silver)",
        3 => " (bronze)",
        _ => "",
    }
}

/// [`crate::engine::Presentation::narrate`]: one sentence or two per event.
pub(super) fn narrate(game: &FifteenHundred, event: &Event) -> Narration {
    let name = |i: usize| game.name(i).to_string();
    match event {
        Event::RoundStarted { round } => Narration::public(format!("Round {round} begins.")),
        Event::Missed { runner } => Narration::public(format!(
            "{} missed the deadline: the default order is played.",
            name(*runner)
        )),
        Event::BidsRevealed {
            bids,
            order,
            left_out,
        } => bids_revealed(game, bids, order, *left_out),
        Event::ActionTaken { runner, action } => Narration::public(match action {
            Some(a) => format!("{} {} {a}.", name(*runner), agree(&name(*runner), "takes")),
            None => format!(
                "{} {} no action.",
                name(*runner),
                agree(&name(*runner), "takes")
            ),
        }),
        Event::CardsRevealed { cards, robot_card } => cards_revealed(game, cards, *robot_card),
        Event::Moved {
            runner,
            phase,
            points,
            penalty,
            from,
            to,
            cost,
        } => moved(
            game,
            *runner,
            *phase,
            (*points, *penalty, *cost),
            *from,
            *to,
        ),
        Event::PaceSet {
            runner,
            from,
            to,
            cost,
            paid,
        } => pace_set(game, *runner, *from, *to, *cost, *paid),
        Event::ExtraCost {
            runner,
            reason,
            cost,
            paid,
        } => extra_cost(game, *runner, *reason, *cost, *paid),
        Event::LapsLeft { laps } => Narration::public(match laps {
            0 => "The bell rings: last lap!".to_string(),
            1 => "1 lap to go after this one.".to_string(),
            n => format!("{n} laps to go after this one."),
        }),
        Event::Finished { runner, place, .. } => Narration::public(format!(
            "{} {} {}{}!",
            name(*runner),
            agree(&name(*runner), "finishes"),
            ordinal(u32::from(*place)),
            medal(*place)
        )),
        Event::HandsRefilled => Narration::public("All four movement cards go back to every hand."),
        Event::RaceOver { order } => race_over(game, order),
    }
}

fn bids_revealed(
    game: &FifteenHundred,
    bids: &[(usize, u8)],
    order: &[usize],
    left_out: Option<usize>,
) -> Narration {
    if bids.is_empty() {
        return Narration::public("Nobody bids this round.");
    }
    let shown: Vec<String> = bids
        .iter()
        .map(|(i, b)| format!("{} {b}", game.name(*i)))
        .collect();
    let choosers = order
        .iter()
        .map(|&i| game.name(i))
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = format!(
        "Bids: {}. Actions are chosen by {choosers}.",
        shown.join(", ")
    );
    if let Some(l) = left_out {
        let who = game.name(l);
        let gets = agree(who, "gets");
        let low = bids.iter().find(|(i, _)| *i == l).map(|&(_, b)| b);
        let tied = bids.iter().filter(|&&(_, b)| Some(b) == low).count();
        // On a tie the worse placed chooses first: the best placed of the lowest waits.
        let why = if tied == bids.len() {
            format!(" All bids are equal: {who}, placed best, {gets} no action.")
        } else if tied > 1 {
            format!(
                " {who} {} for the lowest bid and, placed best, {gets} no action.",
                agree(who, "ties")
            )
        } else {
            format!(" {who} bid lowest and {gets} no action.")
        };
        text.push_str(&why);
    }
    Narration::public(text)
}

fn cards_revealed(
    game: &FifteenHundred,
    cards: &[(usize, u8)],
    robot_card: Option<u8>,
) -> Narration {
    let mut parts: Vec<String> = cards
        .iter()
        .map(|(i, c)| format!("{} {c}", game.name(*i)))
        .collect();
    if let Some(c) = robot_card {
        parts.push(format!("robots {c}"));
    }
    Narration::public(format!("Movement cards: {}.", parts.join(", ")))
}

/// A move; `(points, penalty, cost)` are the points it had, lost and spent.
fn moved(
    game: &FifteenHundred,
    runner: usize,
    phase: Phase,
    (points, penalty, cost): (u8, u8, u8),
    from: Spot,
    to: Spot,
) -> Narration {
    let who = game.name(runner);
    let what = match phase {
        Phase::Cards => agree(who, "moves"),
        Phase::Pace => agree(who, "runs"),
    };
    let pen = if penalty > 0 {
        format!(" ({penalty} lost to exhaustion)")
    } else {
        String::new()
    };
    if from == to {
        Narration::public(format!(
            "{who} {} in {} with {}{pen}.",
            agree(who, "stays"),
            game.course.describe(to),
            count(i64::from(points), "point")
        ))
    } else {
        Narration::public(format!(
            "{who} {what} to {} using {cost} of {}{pen}.",
            game.course.describe(to),
            count(i64::from(points), "point")
        ))
    }
}

fn pace_set(
    game: &FifteenHundred,
    runner: usize,
    from: u8,
    to: u8,
    cost: u16,
    paid: u16,
) -> Narration {
    let who = game.name(runner);
    let change = match to.cmp(&from) {
        Ordering::Greater => format!("{} up to pace {to}", agree(who, "goes")),
        Ordering::Less => format!("{} to pace {to}", agree(who, "drops")),
        Ordering::Equal => format!("{} pace {to}", agree(who, "keeps")),
    };
    let short = if paid < cost {
        format!(
            " (only {paid} paid: {} movement points lost next round)",
            cost - paid
        )
    } else {
        String::new()
    };
    Narration::public(format!(
        "{who} {change}, costing {cost} mental strength{short}."
    ))
}

fn extra_cost(
    game: &FifteenHundred,
    runner: usize,
    reason: CostReason,
    cost: u16,
    paid: u16,
) -> Narration {
    let why = match reason {
        CostReason::Leader => "leading the race".to_string(),
        CostReason::Medal(n) => format!("running {} on the last lap", ordinal(u32::from(n))),
        CostReason::Wear => "wear".to_string(),
    };
    let who = game.name(runner);
    // What cannot be paid is lost from the next round's movement, as for pace.
    let lost = count(i64::from(cost.saturating_sub(paid)), "movement point");
    let text = if paid >= cost {
        format!(
            "{who} {} {cost} mental strength for {why}.",
            agree(who, "pays")
        )
    } else if paid == 0 {
        format!(
            "{who} {} no mental strength left to pay {cost} for {why}: {lost} lost next round.",
            agree(who, "has")
        )
    } else {
        format!(
            "{who} {} the last {paid} of {cost} mental strength for {why}: {lost} lost next \
             round.",
            agree(who, "pays")
        )
    };
    Narration::public(text)
}

fn race_over(game: &FifteenHundred, order: &[usize]) -> Narration {
    let podium: Vec<String> = order
        .iter()
        .take(3)
        .enumerate()
        .map(|(n, &i)| format!("{} {}", ordinal(n as u32 + 1), game.name(i)))
        .collect();
    Narration::public(format!("The race is over: {}.", podium.join(", ")))
}
