//! The soak's checker: reads the whole history at the end (the database and every message
//! the fake Discord keeps) and lists what broke a promise (docs/reliability.md).

use std::collections::{BTreeMap, BTreeSet};

use photofinish::referee::announce::Target;
use photofinish::store::OutboxRow;
use photofinish::vocab::{CampaignId, Phase};
use serde_json::Value;

use super::run::{Figures, Soak};
use super::world::World;
use crate::support::backend::{Arg, Kind, Raw};
use crate::support::discord::{BOT_ID, earlier_part, text_of};

/// A time Discord (or the bot) could not be reached, on the bot's wall clock.
#[derive(Clone, Debug)]
pub struct Outage {
    pub start: i64,
    pub end: i64,
    /// The turn deadlines that fell due meanwhile (a downtime's, read before the restart),
    /// by row id: each must be held (its row replaced), never fired as it stands. By id,
    /// not by time, as the soak's clock also jumps back.
    pub due: Vec<i64>,
}

/// The ids of the turn deadlines not yet fired and due by `by`.
pub async fn unfired_deadlines(w: &World, by: i64) -> Vec<i64> {
    let raw = w.raw().await;
    let ids = raw
        .column(
            "SELECT id FROM deadlines WHERE kind = 'deadline' AND fired_at IS NULL \
             AND due_at <= ? ORDER BY id",
            vec![Arg::I(by)],
        )
        .await;
    raw.close().await;
    ids
}

/// The ids among `ids` that have fired since.
pub async fn fired_among(w: &World, ids: &[i64]) -> Vec<i64> {
    let raw = w.raw().await;
    let mut fired = Vec::new();
    for &id in ids {
        let n = raw
            .scalar(
                "SELECT COUNT(*) FROM deadlines WHERE id = ? AND fired_at IS NOT NULL",
                vec![Arg::I(id)],
            )
            .await;
        if n > 0 {
            fired.push(id);
        }
    }
    raw.close().await;
    fired
}

/// Lets the bot finish (Discord up), then checks everything; problems go to `f.problems`.
pub async fn check(
    w: &mut World,
    soak: &Soak,
    f: &mut Figures,
    downtimes: &[Outage],
    corrupted: &[CampaignId],
) {
    if w.bot.is_none() {
        w.start_bot().await;
    }
    // Whatever waits for a retry lands: a few backoffs' worth of looks.
    for _ in 0..12 {
        w.advance(300);
        w.settle().await;
    }
    let quarantined = only_the_corrupted_quarantined(w, f, corrupted).await;
    let messages: Vec<Value> = w
        .fake
        .messages()
        .into_iter()
        .filter(|m| m["author"]["id"] == BOT_ID.to_string().as_str())
        .collect();
    let rows = races_ended_once(w, soak, f, downtimes, &quarantined).await;
    let by_external = every_announcement_on_discord(f, &rows, &messages);
    once_and_in_order(w, f, &messages, &rows, &by_external);
    let outbox_ids: BTreeSet<String> = rows.iter().map(|(_, r)| r.id.to_string()).collect();
    no_nonce_twice(f, &messages, &w.fake.nonce_repeats(), &outbox_ids);
    super::seats::check_changes(w, f).await;
    secrets(w, f, &messages).await;
    retention_bound(w, soak, f).await;
}

/// The quarantined races: only the corrupted ones may be, and they must be.
async fn only_the_corrupted_quarantined(
    w: &World,
    f: &mut Figures,
    corrupted: &[CampaignId],
) -> BTreeSet<CampaignId> {
    let store = w.store();
    let quarantined: BTreeSet<CampaignId> = store
        .quarantined()
        .await
        .unwrap()
        .into_iter()
        .map(|q| q.campaign)
        .collect();
    f.quarantined = quarantined.len();
    for q in &quarantined {
        if !corrupted.contains(q) {
            f.problems.push(format!(
                "race {q} is quarantined but nothing of it was corrupted"
            ));
        }
    }
    for c in corrupted.iter().filter(|c| !quarantined.contains(c)) {
        f.problems
            .push(format!("race {c} was corrupted but is not quarantined"));
    }
    quarantined
}

/// Each race ended (or is the quarantined one), every step resolved once, no deadline
/// fired in an outage, none that fell due while the bot was down played as missed, every
/// finished race verifies. Returns every race's outbox rows.
async fn races_ended_once(
    w: &World,
    soak: &Soak,
    f: &mut Figures,
    downtimes: &[Outage],
    quarantined: &BTreeSet<CampaignId>,
) -> Vec<(CampaignId, OutboxRow)> {
    let store = w.store();
    let referee = w.bot.as_ref().unwrap().referee();
    let mut rows: Vec<(CampaignId, OutboxRow)> = Vec::new();
    for r in &w.races {
        let Ok(Some(a)) = store.address(r.id).await else {
            f.problems.push(format!("race {} is gone", r.id));
            continue;
        };
        let ended = matches!(a.phase, Some(Phase::Finished | Phase::Cancelled));
        if quarantined.contains(&r.id) {
            // Its announcements still count (what it posted before and the notice).
            for row in store.outbox_of(r.id).await.unwrap() {
                rows.push((r.id, row));
            }
            continue;
        }
        if ended {
            f.finished += 1;
        } else {
            f.problems.push(format!(
                "race {} ({}) neither ended nor is quarantined: {:?} at step {}",
                r.id, r.game, a.phase, a.step
            ));
        }
        f.steps += i64::from(a.step);
        // Every step before the current one resolved, once (one row a step).
        let raw = w.raw().await;
        let resolved = raw
            .scalar(
                "SELECT COUNT(*) FROM turns WHERE campaign_id = ? AND resolved_at IS NOT NULL",
                vec![Arg::I(r.id.0)],
            )
            .await;
        if resolved != i64::from(a.step) {
            f.problems.push(format!(
                "race {}: {} steps counted, {resolved} resolved",
                r.id, a.step
            ));
        }
        // Every resolved step told once in the channel: the steps the race's
        // announcements name, against the steps stored (a step resolved twice is told
        // twice, though its row is one).
        told_once(w, f, r.id, a.step, &raw).await;
        // The bot's own downtime is held: a deadline due while it was down is moved on
        // by the downtime (its row replaced), never fired at its old time on restart.
        // (An outage's deadlines are checked as it ends, `run.rs`.)
        if soak.checks.no_deadline_in_outage {
            for d in downtimes {
                let mut n = 0;
                for &id in &d.due {
                    n += raw
                        .scalar(
                            "SELECT COUNT(*) FROM deadlines WHERE id = ? AND campaign_id = ? \
                             AND fired_at IS NOT NULL",
                            vec![Arg::I(id), Arg::I(r.id.0)],
                        )
                        .await;
                }
                if n > 0 {
                    f.problems.push(format!(
                        "race {}: {n} deadline(s) due while the bot was down for {} min fired \
                         at their old time",
                        r.id,
                        (d.end - d.start) / 60_000
                    ));
                }
            }
        }
        raw.close().await;
        if ended && a.phase == Some(Phase::Finished) {
            match referee.verify(r.id).await {
                Ok(report) if report.ok() => {}
                other => f
                    .problems
                    .push(format!("race {} does not verify: {other:?}", r.id)),
            }
        }
        for row in store.outbox_of(r.id).await.unwrap() {
            rows.push((r.id, row));
        }
    }
    rows
}

/// The steps a race's channel posts tell (each resolved step once, by its label; a round
/// told in parts, by its last part) are the steps it resolved. A race compacted already (no `started` row left) is not counted.
async fn told_once(w: &World, f: &mut Figures, race: CampaignId, steps: u32, raw: &Raw) {
    let rows = w.store().outbox_of(race).await.unwrap();
    let kind = |r: &OutboxRow| r.payload["kind"].as_str().unwrap_or("").to_string();
    if !rows.iter().any(|r| kind(r) == "started") {
        return;
    }
    let mut told: BTreeMap<String, i64> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| kind(r) == "turn-resolved" && !earlier_part(&r.payload))
    {
        for label in r.payload["labels"].as_array().into_iter().flatten() {
            *told
                .entry(label.as_str().unwrap_or("").to_string())
                .or_insert(0) += 1;
        }
    }
    let total: i64 = told.values().sum();
    if total != i64::from(steps) {
        f.problems.push(format!(
            "race {race}: {steps} steps resolved, {total} told in the channel"
        ));
    }
    for (label, n) in told {
        let stored = raw
            .scalar(
                "SELECT COUNT(*) FROM turns WHERE campaign_id = ? AND label = ? \
                 AND resolved_at IS NOT NULL",
                vec![Arg::I(race.0), Arg::S(label.clone())],
            )
            .await;
        if n != stored {
            f.doubled += 1;
            f.problems.push(format!(
                "race {race}: step \"{label}\" told {n} times, resolved {stored} times"
            ));
        }
    }
}

/// Every announcement delivered (or moot, or superseded), and on Discord. Returns the
/// rows that landed, by the message they landed as.
fn every_announcement_on_discord(
    f: &mut Figures,
    rows: &[(CampaignId, OutboxRow)],
    messages: &[Value],
) -> BTreeMap<String, Vec<(i64, Target)>> {
    let mut by_external: BTreeMap<String, Vec<(i64, Target)>> = BTreeMap::new();
    // Every announcement: delivered (or moot), and on Discord.
    let ids: BTreeSet<String> = messages
        .iter()
        .filter_map(|m| m["id"].as_str().map(String::from))
        .collect();
    for (race, row) in rows {
        let target: Option<Target> = serde_json::from_value(row.target.clone()).ok();
        match (&row.delivered_at, &row.failed, &row.external_id) {
            (Some(_), _, Some(ext)) => {
                if !ids.contains(ext) && target != Some(Target::Status) {
                    // A status message may be deleted and posted again; others stay.
                    f.lost += 1;
                    f.problems.push(format!(
                        "race {race}: announcement {} marked delivered as {ext}, not on Discord",
                        row.id
                    ));
                }
                if let Some(t) = target {
                    by_external
                        .entry(ext.clone())
                        .or_default()
                        .push((row.id, t));
                }
            }
            (Some(_), _, None) => {}
            (None, Some(why), _) => {
                if !(why.starts_with("superseded") || why.starts_with("moot")) {
                    f.lost += 1;
                    f.problems.push(format!(
                        "race {race}: announcement {} given up: {why}",
                        row.id
                    ));
                }
            }
            (None, None, _) => {
                f.lost += 1;
                f.problems.push(format!(
                    "race {race}: announcement {} never delivered ({} attempts)",
                    row.id, row.attempts
                ));
            }
        }
    }
    by_external
}

/// Exactly once, and in order per channel: each bot message in a race's channel or a
/// DM is one announcement's (edits of the status message share one), and the posts of
/// one channel come in the order they were queued.
fn once_and_in_order(
    w: &World,
    f: &mut Figures,
    messages: &[Value],
    rows: &[(CampaignId, OutboxRow)],
    by_external: &BTreeMap<String, Vec<(i64, Target)>>,
) {
    let mut race_channels: BTreeSet<String> =
        w.races.iter().map(|r| r.channel.to_string()).collect();
    for r in &w.races {
        for (u, _) in &r.humans {
            if let Some(dm) = w.fake.dm_channel(u.id) {
                race_channels.insert(dm.to_string());
            }
        }
    }
    for c in &w.changes {
        if let Some(dm) = w.fake.dm_channel(c.old.id) {
            race_channels.insert(dm.to_string());
        }
    }
    // Rows that name the message they landed as. A row given up as moot or superseded
    // after an attempt whose answer was lost may have landed all the same: once, which
    // the nonce count below checks.
    let known: BTreeSet<i64> = rows
        .iter()
        .filter(|(_, r)| r.external_id.is_some())
        .map(|(_, r)| r.id)
        .collect();
    let mut last_in: BTreeMap<String, i64> = BTreeMap::new();
    for m in messages {
        let Some(id) = m["id"].as_str() else { continue };
        let channel = m["channel_id"].as_str().unwrap_or("").to_string();
        let Some(rows) = by_external.get(id) else {
            // Answers to a command or a DM (receipts, refusals, the join check) carry no
            // nonce and are not the outbox's. A message carrying an announcement's id
            // that is not the one its row records is that announcement posted again
            // (a row compacted away leaves it to the nonce count below).
            let nonce = match &m["nonce"] {
                Value::String(s) => s.parse::<i64>().ok(),
                Value::Number(n) => n.as_i64(),
                _ => None,
            };
            if race_channels.contains(&channel)
                && let Some(n) = nonce
                && known.contains(&n)
            {
                f.doubled += 1;
                f.problems.push(format!(
                    "announcement {n} posted again as message {id} in channel {channel}: {}",
                    text_of(m)
                ));
            }
            continue;
        };
        let creates: Vec<i64> = rows
            .iter()
            .filter(|(_, t)| matches!(t, Target::Channel | Target::Dm { .. }))
            .map(|(id, _)| *id)
            .collect();
        if creates.len() > 1 {
            f.doubled += 1;
            f.problems.push(format!(
                "announcements {creates:?} landed as one message {id}"
            ));
        }
        if let Some(&first) = creates.first() {
            let last = last_in.entry(channel.clone()).or_insert(0);
            if first < *last {
                f.problems.push(format!(
                    "channel {channel}: announcement {first} posted after {last}"
                ));
            }
            *last = first.max(*last);
        }
    }
}

/// Each announcement is sent once: two messages of one row would be a double post, and so
/// would a second create of it that the fake folded into the first by its nonce (Discord
/// folds only within minutes; a retry looks for the message first). Counted as received,
/// not as stored. A DM receipt's retry after a lost answer may repeat its nonce; it is not
/// an announcement.
fn no_nonce_twice(
    f: &mut Figures,
    messages: &[Value],
    repeats: &[(u64, String)],
    outbox_ids: &BTreeSet<String>,
) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for m in messages {
        let nonce = match &m["nonce"] {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        if let Some(t) = nonce {
            *seen.entry(t).or_insert(0) += 1;
        }
    }
    for (_, nonce) in repeats {
        if outbox_ids.contains(nonce) {
            *seen.entry(nonce.clone()).or_insert(0) += 1;
        }
    }
    for (nonce, n) in seen {
        if n > 1 {
            f.doubled += 1;
            let copies: Vec<String> = messages
                .iter()
                .filter(|m| match &m["nonce"] {
                    Value::String(s) => *s == nonce,
                    Value::Number(n) => n.to_string() == nonce,
                    _ => false,
                })
                .map(|m| format!("{} in {}: {:.80}", m["id"], m["channel_id"], text_of(m)))
                .collect();
            f.problems.push(format!(
                "one announcement (nonce {nonce}) posted {n} times: {copies:?}"
            ));
        }
    }
}

/// No race's seed (its secret until the end) in any message queued before the race ended.
async fn secrets(w: &World, f: &mut Figures, messages: &[Value]) {
    let raw = w.raw().await;
    for r in &w.races {
        let Ok(Some(loaded)) = w.store().load(r.id).await else {
            continue;
        };
        let seed = loaded.campaign.seed.clone();
        let ended = loaded.campaign.ended_at.unwrap_or(i64::MAX);
        for m in messages {
            if !text_of(m).contains(&seed) {
                continue;
            }
            let id = m["id"].as_str().unwrap_or("").to_string();
            let early = raw
                .scalar(
                    "SELECT COUNT(*) FROM outbox WHERE external_id = ? AND created_at < ?",
                    vec![Arg::S(id), Arg::I(ended)],
                )
                .await;
            if early > 0 {
                f.problems
                    .push(format!("race {}: its seed was posted before its end", r.id));
            }
        }
    }
    raw.close().await;
}

/// Compacts 31 days after the end, then requires the rows that grow with clicks to be
/// bounded by the races' steps and seats.
async fn retention_bound(w: &World, soak: &Soak, f: &mut Figures) {
    w.advance(31 * 86_400);
    w.settle().await;
    let referee = w.bot.as_ref().unwrap().referee();
    referee.compact_now().await.unwrap();
    let raw = w.raw().await;
    let count = |sql: &'static str| {
        let raw = &raw;
        async move { raw.scalar(sql, vec![]).await }
    };
    let orders = count("SELECT COUNT(*) FROM orders").await;
    // The outbox's newest row is always kept (its id must not be given again).
    let outbox = count(
        "SELECT COUNT(*) FROM outbox WHERE campaign_id IN \
         (SELECT id FROM campaigns WHERE phase IN ('finished', 'cancelled')) \
         AND id < (SELECT MAX(id) FROM outbox)",
    )
    .await;
    let fired = count(
        "SELECT COUNT(*) FROM deadlines WHERE fired_at IS NOT NULL AND campaign_id IN \
         (SELECT id FROM campaigns WHERE phase IN ('finished', 'cancelled'))",
    )
    .await;
    let seat_steps = count(
        "SELECT COALESCE(SUM(c.step * (SELECT COUNT(*) FROM seats s WHERE s.campaign_id = c.id)), 0) \
         FROM campaigns c",
    )
    .await;
    // Open (quarantined) races keep their rows; ended ones keep one order a seat a step.
    let open_rows = count(
        "SELECT COUNT(*) FROM outbox WHERE campaign_id IN \
         (SELECT id FROM campaigns WHERE phase NOT IN ('finished', 'cancelled'))",
    )
    .await;
    // What compaction promises per race: one order a seat a step, nothing superseded.
    let superseded = count(
        "SELECT COUNT(*) FROM orders WHERE superseded = TRUE AND campaign_id IN \
         (SELECT id FROM campaigns WHERE phase IN ('finished', 'cancelled'))",
    )
    .await;
    let twice = count(
        "SELECT COUNT(*) FROM (SELECT campaign_id, step, seat FROM orders WHERE campaign_id IN \
         (SELECT id FROM campaigns WHERE phase IN ('finished', 'cancelled')) \
         GROUP BY campaign_id, step, seat HAVING COUNT(*) > 1) AS t",
    )
    .await;
    if superseded > 0 || twice > 0 {
        f.problems.push(format!(
            "retention: {superseded} superseded orders of ended races left; {twice} seat-steps \
             with more than one order"
        ));
    }
    if orders > seat_steps || outbox > 0 || fired > 0 {
        f.problems.push(format!(
            "retention: {orders} orders for {seat_steps} seat-steps, {outbox} announcements \
             and {fired} fired deadlines of ended races left ({open_rows} of open races)"
        ));
    }
    if soak.kind == Kind::Sqlite {
        raw.execute("VACUUM", vec![]).await;
        let bytes = raw
            .scalar(
                "SELECT (p.page_count - l.freelist_count) * s.page_size \
                 FROM pragma_page_count() p, pragma_freelist_count() l, pragma_page_size() s",
                vec![],
            )
            .await;
        f.bytes_per_race = bytes / i64::try_from(w.races.len().max(1)).unwrap();
    }
    raw.close().await;
}
