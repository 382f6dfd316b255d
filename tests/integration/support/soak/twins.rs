//! The soak's rolling deploy: a second bot process on the same shard, database
//! and test clock for a simulated hour. Both get every gateway event, both run their
//! workers. Checked at the end of the hour: each DM order was applied once and answered
//! once, a host's `/race deadline extend` moved the deadline once, and each race still has
//! one status message. The rest (every step resolved once, every announcement posted once
//! and in order) is the checker's at the end ([`super::check`]).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::run::{Figures, Soak};
use super::world::World;
use crate::support::backend::Arg;
use crate::support::discord::{BOT_ID, text_of};

const HOUR: i64 = 3600;

/// One hour of two processes on one shard.
pub async fn hour_of_two(w: &mut World, soak: &Soak, f: &mut Figures) {
    // REST faults left over from a storm would cost DM receipts (not in the outbox): the
    // hour starts clean, so that an answer missing is the twins' doing.
    w.fake.clear_faults();
    w.settle().await;
    let start = w.now();
    let first_dm = w.dms.len();
    let raw = w.raw().await;
    let last_order = raw
        .scalar("SELECT COALESCE(MAX(id), 0) FROM orders", vec![])
        .await;
    raw.close().await;
    w.start_twin().await;
    w.settle().await;
    let extended = extend_once(w, f).await;
    let mut left = HOUR;
    while left > 0 {
        f.orders_sent += w.humans_rounds().await;
        let step = left.min(soak.look_secs);
        w.advance(step);
        w.settle().await;
        left -= step;
    }
    let n = w.humans_act().await;
    f.orders_sent += n;
    w.settle().await;
    w.stop_twin().await;
    let sent: Vec<u64> = w.dms[first_dm..].to_vec();
    eprintln!(
        "soak: two processes on one shard from {start} ms for an hour: {} DMs sent, \
         deadline extend checked: {extended}",
        sent.len()
    );
    dms_once(w, f, start, &sent, last_order).await;
    one_status_message(w, f).await;
}

/// Each DM of the hour answered exactly once (counted as the fake received the answers,
/// not as it stored them), and no more player orders stored than DMs
/// sent (a DM applied by both processes stores two).
async fn dms_once(w: &World, f: &mut Figures, start: i64, sent: &[u64], last_order: i64) {
    let mut answers: BTreeMap<u64, usize> = BTreeMap::new();
    for m in w.fake.messages() {
        if m["author"]["id"] != BOT_ID.to_string().as_str() {
            continue;
        }
        let nonce = match &m["nonce"] {
            Value::String(s) => s.parse::<u64>().ok(),
            Value::Number(n) => n.as_u64(),
            _ => None,
        };
        if let Some(n) = nonce {
            *answers.entry(n).or_insert(0) += 1;
        }
    }
    // What the fake received: a second answer under the same nonce is folded into the
    // first message, but it was sent (the hour has no lost answers to excuse a retry).
    for (_, n) in w.fake.nonce_repeats() {
        if let Ok(n) = n.parse::<u64>() {
            *answers.entry(n).or_insert(0) += 1;
        }
    }
    for dm in sent {
        match answers.get(dm).copied().unwrap_or(0) {
            1 => {}
            0 => {
                f.lost += 1;
                f.problems.push(format!(
                    "two processes on one shard (from {start} ms): DM {dm} was never answered"
                ));
            }
            n => {
                f.doubled += 1;
                f.problems.push(format!(
                    "two processes on one shard (from {start} ms): DM {dm} answered {n} times"
                ));
            }
        }
    }
    let raw = w.raw().await;
    let stored = raw
        .scalar(
            "SELECT COUNT(*) FROM orders WHERE id > ? AND source = 'player'",
            vec![Arg::I(last_order)],
        )
        .await;
    raw.close().await;
    if stored > i64::try_from(sent.len()).unwrap() {
        f.doubled += 1;
        f.problems.push(format!(
            "two processes on one shard (from {start} ms): {stored} player orders stored for \
             {} DMs sent (a DM applied by both processes)",
            sent.len()
        ));
    }
}

/// A host extends the first open race's deadline by an hour, while both processes get
/// the command: it moves once. Whether it was checked.
async fn extend_once(w: &World, f: &mut Figures) -> bool {
    let open = w.open_races().await;
    let Some(race) = w.races.iter().find(|r| open.contains(&r.id)) else {
        return false;
    };
    let referee = w.bot.as_ref().unwrap().referee();
    let Ok(before) = referee.overview(race.id).await else {
        return false;
    };
    let Some(due) = before.deadline else {
        return false;
    };
    let host = race.humans[0].0.clone();
    let answer = w
        .slash(&host, race.channel, "deadline", &[("extend", json!("1h"))])
        .await;
    w.settle().await;
    if !text_of(&answer).contains("Deadline moved") {
        // Refused (the seat's deadline is the race's own business then): nothing to see.
        return false;
    }
    let Ok(after) = referee.overview(race.id).await else {
        return false;
    };
    if after.label != before.label {
        return false; // the step moved on meanwhile: its deadline is a new one
    }
    if after.deadline != Some(due + 3_600_000) {
        f.doubled += 1;
        f.problems.push(format!(
            "two processes on one shard: race {} extended by an hour from {due} ms, now {:?}",
            race.id, after.deadline
        ));
    }
    true
}

/// Each race's channel holds at most one status message (two processes posting a race's
/// first status at once would make two).
async fn one_status_message(w: &World, f: &mut Figures) {
    let store = w.store();
    for r in &w.races {
        let Ok(rows) = store.outbox_of(r.id).await else {
            continue;
        };
        let status: std::collections::BTreeSet<String> = rows
            .iter()
            .filter(|row| {
                serde_json::from_value::<photofinish::referee::announce::Target>(row.target.clone())
                    .is_ok_and(|t| t == photofinish::referee::announce::Target::Status)
            })
            .filter_map(|row| row.external_id.clone())
            .collect();
        if status.len() > 1 {
            f.doubled += 1;
            f.problems.push(format!(
                "two processes on one shard: race {} has {} status messages: {status:?}",
                r.id,
                status.len()
            ));
        }
    }
}
