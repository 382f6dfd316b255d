//! `photofinish verify`: recompute a race that is over from its log and check that every
//! random outcome matches the revealed seed, and every receipt its order.
//!
//! One check serves the database and an export file alike: the stored rows are read as
//! an [`Export`] first ([`export::export_of`]). The game is set up again from the
//! revealed seed (whose SHA-256 must match the commitment published at the start); each
//! order's receipt must be the hash of its text and nonce, and its text the order it
//! carries; every preference and order is applied again in the order it was, and each
//! step's events (dice, shuffles and draws are all events) must equal the recorded ones,
//! and the result the recorded result. From the database, the final state must also
//! equal the stored state; from a file, its options text must be its options', and the
//! game must take each preference.

use serde::Serialize;

use super::chain;
use super::export::{self, Export, ExportPlacing, ExportPreference, ExportStep};
use super::work::{SHORT_RECEIPT, receipt_for, short_receipt};
use crate::engine::{Mode, Seat, SeatSetup, Seed, Submitted, commitment_matches};
use crate::games::{AnyEvent, AnyGame};
use crate::store::{CampaignRow, OrderSource, PreferenceRow, SeatRow, StepLog};
use crate::vocab::Phase;

/// What verification found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    pub race: i64,
    pub seed: String,
    pub commitment: String,
    pub commitment_matches: bool,
    pub steps_checked: usize,
    pub events_checked: usize,
    /// Orders whose receipt was recomputed from their text and nonce.
    pub receipts_checked: usize,
    /// From the database: the replayed final state is the stored one. From a file: the
    /// replayed result is the recorded one.
    pub final_state_matches: bool,
    /// Each difference found, in words.
    pub problems: Vec<String>,
    /// The record's proof ([`chain::proof`]), to compare with the one the bot posted
    /// with the result.
    pub proof: String,
}

impl VerifyReport {
    /// Every random outcome matches the revealed seed.
    pub fn ok(&self) -> bool {
        self.commitment_matches && self.final_state_matches && self.problems.is_empty()
    }
}

/// Replays a campaign's stored log from its seed.
pub fn verify(
    campaign: &CampaignRow,
    seats: &[SeatRow],
    log: &[StepLog],
    prefs: &[PreferenceRow],
) -> VerifyReport {
    let export = export::export_of(campaign, seats, log, prefs);
    let (mut report, game) = check(&export, false);
    let Some(game) = game else {
        return report;
    };
    report.final_state_matches = campaign.state.as_ref() == Some(&game);
    if !report.final_state_matches {
        report
            .problems
            .push("the replayed final state differs from the stored one".into());
    }
    report
}

/// Checks an export on its own, with no database: the seed, every receipt, every step and
/// the result.
pub fn verify_export(export: &Export) -> VerifyReport {
    let (mut report, game) = check(export, true);
    let Some(game) = game else {
        return report;
    };
    let replayed = result_of(export, &game);
    let finished = export.phase == Phase::Finished;
    if finished != replayed.is_some() {
        report.problems.push(if finished {
            "the file says the race finished, yet the replayed race does not finish".into()
        } else {
            "the file says the race was cancelled, yet the replayed race finishes".into()
        });
    }
    report.final_state_matches = replayed == export.result;
    if !report.final_state_matches {
        report.problems.push(match (&export.result, &replayed) {
            (None, Some(_)) => "the file records no result, yet the replayed race finishes".into(),
            (Some(_), None) => {
                "the file records a result, yet the replayed race does not finish".into()
            }
            _ => {
                "the recorded result differs from the replayed one (places, names or scores)".into()
            }
        });
    }
    report
}

/// The result the replayed game reached, named as the export names its seats.
fn result_of(export: &Export, game: &AnyGame) -> Option<Vec<ExportPlacing>> {
    game.outcome().map(|o| {
        o.placings
            .iter()
            .map(|p| ExportPlacing {
                seat: p.seat,
                name: name_of(export, p.seat),
                rank: p.rank,
                score: p.score,
            })
            .collect()
    })
}

fn name_of(export: &Export, seat: crate::engine::Seat) -> String {
    export
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map_or_else(|| format!("seat {}", seat.0), |s| s.name.clone())
}

/// The checks both sources share. The game comes back when it could be replayed (a race
/// cancelled in its lobby has none, and then nothing else to check). A `file` has its
/// options text and preferences checked too: the database's rows are checked against the
/// stored state instead.
fn check(export: &Export, file: bool) -> (VerifyReport, Option<AnyGame>) {
    let mut report = VerifyReport {
        race: export.race,
        seed: export.seed.clone(),
        commitment: export.commitment.clone(),
        commitment_matches: false,
        steps_checked: 0,
        events_checked: 0,
        receipts_checked: 0,
        final_state_matches: false,
        problems: Vec::new(),
        proof: chain::proof(export),
    };
    let Some(seed) = Seed::from_hex(&export.seed) else {
        report
            .problems
            .push("the revealed seed is not 32 bytes of hex".into());
        return (report, None);
    };
    report.commitment_matches = commitment_matches(&seed, &export.commitment);
    if !report.commitment_matches {
        report
            .problems
            .push("the seed does not match the commitment published at the start".into());
    }
    if !export.started {
        // Cancelled in its lobby: no game, so nothing was drawn.
        report.final_state_matches = export.steps.is_empty() && export.result.is_none();
        if !report.final_state_matches {
            report
                .problems
                .push("a race that never started records steps or a result".into());
        }
        return (report, None);
    }
    let mut problems = Vec::new();
    if file && export.options_text != export.game.describe_options(&export.options) {
        problems.push(format!(
            "the options text `{}` is not the options the race was set up with (`{}`)",
            export.options_text,
            export.game.describe_options(&export.options)
        ));
    }
    let (steps, events, receipts, game) = replay(export, seed, file, &mut problems, |_, _, _| {});
    report.problems.extend(problems);
    report.steps_checked = steps;
    report.events_checked = events;
    report.receipts_checked = receipts;
    (report, game)
}

/// Replays an export step by step without checking it, calling `each` after every step
/// with the step, the game after it and the replayed events (`replay` and `render` of a
/// file, the picture of a past turn). Nothing is called if the game cannot be set up.
pub fn replay_export(export: &Export, each: impl FnMut(&ExportStep, &AnyGame, &[AnyEvent])) {
    let Some(seed) = Seed::from_hex(&export.seed) else {
        return;
    };
    let mut ignored = Vec::new();
    let _ = replay(export, seed, false, &mut ignored, each);
}

/// Checks a step's orders against the state they were played in, as the referee took
/// them: each from a seat that exists and was to order, at most one per seat, legal
/// there; every seat asked has one (a missed one is its default), and where the first
/// order decides ([`Mode::Any`]) there is exactly one. A step after the end has none.
fn check_orders(
    export: &Export,
    game: &AnyGame,
    step: &ExportStep,
    at: &str,
    problems: &mut Vec<String>,
) {
    if game.outcome().is_some() {
        problems.push(format!("{at}: a step recorded after the race was over"));
        return;
    }
    let pending = game.pending();
    let mut seen: Vec<Seat> = Vec::new();
    for o in &step.orders {
        if !export.seats.iter().any(|s| s.seat == o.seat) {
            problems.push(format!(
                "{at}: an order for seat {}, which the race does not have",
                o.seat.0
            ));
            continue;
        }
        let who = name_of(export, o.seat);
        if seen.contains(&o.seat) {
            problems.push(format!("{at}: {who} has more than one order"));
            continue;
        }
        seen.push(o.seat);
        if !pending.seats.contains(&o.seat) {
            problems.push(format!("{at}: {who} had nothing to order in this step"));
        } else if let Err(e) = game.validate(o.seat, &o.order) {
            problems.push(format!(
                "{at}: {who}'s order `{}` was not allowed: {e}",
                o.text
            ));
        }
    }
    match pending.mode {
        Mode::All => {
            for seat in pending.seats.iter().filter(|s| !seen.contains(s)) {
                problems.push(format!("{at}: {} has no order", name_of(export, *seat)));
            }
        }
        Mode::Any if step.orders.len() != 1 => problems.push(format!(
            "{at}: {} orders where the first one decides",
            step.orders.len()
        )),
        Mode::Any => {}
    }
}

/// Applies a standing preference again. One the game refuses was never stored (a refusal
/// is answered, not kept), so in a file it is a change; the database's are taken as
/// they are.
fn prefer(
    export: &Export,
    game: &mut AnyGame,
    p: &ExportPreference,
    file: bool,
    problems: &mut Vec<String>,
) {
    if let Err(e) = game.set_preference(p.seat, &p.text)
        && file
    {
        problems.push(format!(
            "{}'s preference `{}` (step {}) is one the game refuses: {e}",
            name_of(export, p.seat),
            p.text,
            u64::from(p.step) + 1
        ));
    }
}

/// The one replay loop: returns the steps, events and receipts checked, and the final game.
/// With `file`, each preference must be one the game takes. A step's label is
/// not checked: its wording is a release's (an older one read "Round 1: Alice to play").
fn replay(
    export: &Export,
    seed: Seed,
    file: bool,
    problems: &mut Vec<String>,
    mut each: impl FnMut(&ExportStep, &AnyGame, &[AnyEvent]),
) -> (usize, usize, usize, Option<AnyGame>) {
    let setups: Vec<SeatSetup> = export
        .seats
        .iter()
        .map(|s| SeatSetup {
            name: s.name.clone(),
            choice: s.choice.clone(),
        })
        .collect();
    let mut game = match export.game.setup(&export.options, &setups, seed) {
        Ok(g) => g,
        Err(e) => {
            problems.push(format!("the game cannot be set up again: {e}"));
            return (0, 0, 0, None);
        }
    };
    let (mut steps, mut events_checked, mut receipts) = (0usize, 0usize, 0usize);
    let mut prefs = export.preferences.iter().peekable();
    for step in &export.steps {
        while let Some(p) = prefs.next_if(|p| p.step <= step.step) {
            prefer(export, &mut game, p, file, problems);
        }
        let at = format!("{} (step {})", step.label, u64::from(step.step) + 1);
        check_orders(export, &game, step, &at, problems);
        for o in &step.orders {
            let who = name_of(export, o.seat);
            receipts += 1;
            let full = receipt_for(export.race, step.step, o.seat, &o.text, &o.nonce);
            // A race recorded before whole hashes were kept has the short form.
            let legacy = o.receipt.len() == SHORT_RECEIPT && short_receipt(&full) == o.receipt;
            if full != o.receipt && !legacy {
                problems.push(format!(
                    "{at}: {who}'s receipt {} is not the hash of the order `{}` with nonce {}",
                    o.receipt, o.text, o.nonce
                ));
            }
            if game.format_order(o.seat, &o.order) != o.text {
                problems.push(format!(
                    "{at}: {who}'s order text `{}` is not the order the step applies (`{}`)",
                    o.text,
                    game.format_order(o.seat, &o.order)
                ));
            }
        }
        let orders: Vec<Submitted<_>> = step
            .orders
            .iter()
            .map(|o| Submitted {
                seat: o.seat,
                order: o.order.clone(),
                missed: o.source == OrderSource::Default,
            })
            .collect();
        let events = game.apply(&orders);
        steps += 1;
        events_checked += events.len();
        let recorded: Vec<AnyEvent> = step
            .events
            .iter()
            .cloned()
            .map(AnyEvent::upgraded)
            .collect();
        if events != recorded {
            let first = events
                .iter()
                .zip(&recorded)
                .position(|(a, b)| a != b)
                .unwrap_or(events.len().min(step.events.len()));
            problems.push(format!(
                "{at}: the replayed events differ from the stored ones (from event {} of {} recorded, {} replayed)",
                first + 1,
                step.events.len(),
                events.len()
            ));
        }
        each(step, &game, &events);
    }
    for p in prefs {
        prefer(export, &mut game, p, file, problems);
    }
    (steps, events_checked, receipts, Some(game))
}
