//! `photofinish verify`: recompute a finished campaign from its stored log and check that
//! every random outcome matches the revealed seed.
//!
//! The game is set up again from the revealed seed (whose SHA-256 must match the
//! commitment published at the start), every preference and order is applied again in
//! the order it was, and each step's events (dice, shuffles, draws are all events) must
//! equal the stored ones, and the final state the stored state.

use serde::Serialize;

use crate::engine::{SeatSetup, Seed, Submitted, commitment_matches};
use crate::store::{CampaignRow, OrderSource, PreferenceRow, SeatRow, StepLog};

/// What verification found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    pub race: i64,
    pub seed: String,
    pub commitment: String,
    pub commitment_matches: bool,
    pub steps_checked: usize,
    pub events_checked: usize,
    pub final_state_matches: bool,
    /// Each difference found, in words.
    pub problems: Vec<String>,
}

impl VerifyReport {
    /// Every random outcome matches the revealed seed.
    pub fn ok(&self) -> bool {
        self.commitment_matches && self.final_state_matches && self.problems.is_empty()
    }
}

/// Replays a campaign's log from its seed.
pub fn verify(
    campaign: &CampaignRow,
    seats: &[SeatRow],
    log: &[StepLog],
    prefs: &[PreferenceRow],
) -> VerifyReport {
    let mut report = VerifyReport {
        race: campaign.id.0,
        seed: campaign.seed.clone(),
        commitment: campaign.commitment.clone(),
        commitment_matches: false,
        steps_checked: 0,
        events_checked: 0,
        final_state_matches: false,
        problems: Vec::new(),
    };
    let Some(seed) = Seed::from_hex(&campaign.seed) else {
        report
            .problems
            .push("the revealed seed is not 32 bytes of hex".into());
        return report;
    };
    report.commitment_matches = commitment_matches(&seed, &campaign.commitment);
    if !report.commitment_matches {
        report
            .problems
            .push("the seed does not match the commitment published at the start".into());
    }
    let setups: Vec<SeatSetup> = seats
        .iter()
        .map(|s| SeatSetup {
            name: s.name.clone(),
            choice: s.choice.clone(),
        })
        .collect();
    let mut game = match campaign.kind.setup(&campaign.options, &setups, seed) {
        Ok(g) => g,
        Err(e) => {
            report
                .problems
                .push(format!("the game cannot be set up again: {e}"));
            return report;
        }
    };
    let mut prefs = prefs.iter().peekable();
    for step in log {
        while let Some(p) = prefs.next_if(|p| p.step <= step.turn.step) {
            // A preference that was refused at the time was never stored, so this applies.
            let _ = game.set_preference(p.seat, &p.text);
        }
        let orders: Vec<Submitted<_>> = step
            .orders
            .iter()
            .map(|o| Submitted {
                seat: o.seat,
                order: o.parsed.clone(),
                missed: o.source == OrderSource::Default,
            })
            .collect();
        let events = game.apply(&orders);
        report.steps_checked += 1;
        report.events_checked += events.len();
        if events != step.events {
            report.problems.push(format!(
                "{} (step {}): the replayed events differ from the stored ones",
                step.turn.label,
                step.turn.step + 1
            ));
        }
    }
    for p in prefs {
        let _ = game.set_preference(p.seat, &p.text);
    }
    report.final_state_matches = campaign.state.as_ref() == Some(&game);
    if !report.final_state_matches {
        report
            .problems
            .push("the replayed final state differs from the stored one".into());
    }
    report
}
