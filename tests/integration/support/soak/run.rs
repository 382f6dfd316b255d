//! The soak's loop: races started as channels free up, humans acting by habit, and
//! faults on a seeded schedule, through simulated days; then the checker
//! ([`super::check`]) and the retention bound.

use std::collections::BTreeMap;

use photofinish::vocab::CampaignId;

use super::check::{self, Outage};
use super::damage::{self, Damage};
use super::world::World;
use crate::support::backend::{Arg, Kind};
use crate::support::discord::{Fault, Hang};

/// Which faults the schedule injects. Each can be switched off, to tell which one breaks.
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    /// Discord unreachable (REST 503 and no gateway) for 1 minute to 6 hours.
    pub outages: bool,
    /// Bursts of 429s and of 5xx answers to message posts.
    pub storms: bool,
    /// Message posts created but answered 500 (the bot cannot know they landed).
    pub lost_answers: bool,
    /// Gateway sessions dropped, resumable or not.
    pub gateway_drops: bool,
    /// The bot stopped at a random point and started again 1 minute to 3 hours later.
    pub kills: bool,
    /// The wall clock set an hour ahead or back.
    pub clock_jumps: bool,
    /// Two races' state rows harmed: one that decodes but lies, one that does not decode.
    pub corrupt_one: bool,
    /// One race's commits fail for a while (disk full).
    pub disk_full: bool,
    /// Two processes on one shard for an hour, as during a rolling deploy.
    pub twins: bool,
    /// Bursts of the 4xx answers that may heal: 401, 403 and 404 without a Discord code
    /// (a rotated token, a misrouted proxy), 408, and 413 (the picture too large).
    pub four_xx: bool,
    /// Message posts that land but are answered 200 with a page that is not JSON.
    pub not_json: bool,
    /// Claiming deadlines fails for an hour (a full disk under every claim).
    pub claims_fail: bool,
    /// The bot itself down for 2 to 8 hours while the humans write their DMs.
    pub downtime: bool,
    /// Requests that are never answered, for half an hour: the posts in one race's
    /// channel (they land, the answer never comes), or every REST request.
    pub hangs: bool,
}

impl Faults {
    pub fn all() -> Faults {
        Faults {
            outages: true,
            storms: true,
            lost_answers: true,
            gateway_drops: true,
            kills: true,
            clock_jumps: true,
            corrupt_one: true,
            disk_full: true,
            twins: true,
            four_xx: true,
            not_json: true,
            claims_fail: true,
            downtime: true,
            hangs: true,
        }
    }
}

/// What the checker requires beyond the basics; each can be switched off where the
/// branch is known to fail it (see docs/reliability.md, "Soak").
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// No deadline fires while Discord is out (the outage hold).
    pub no_deadline_in_outage: bool,
}

/// One soak.
#[derive(Clone, Copy, Debug)]
pub struct Soak {
    pub kind: Kind,
    pub seed: u64,
    pub days: i64,
    pub races: usize,
    /// Races at once (one a channel).
    pub channels: usize,
    /// Simulated seconds a look.
    pub look_secs: i64,
    pub faults: Faults,
    pub checks: Checks,
}

/// What a soak did.
#[derive(Debug, Default)]
pub struct Figures {
    pub races: usize,
    pub finished: usize,
    pub quarantined: usize,
    pub steps: i64,
    pub orders_sent: usize,
    pub faults: BTreeMap<&'static str, u32>,
    pub lost: usize,
    pub doubled: usize,
    /// Each SIGKILLed child: the posts and edits it had made.
    pub killed_after: Vec<usize>,
    pub bytes_per_race: i64,
    pub problems: Vec<String>,
}

/// The fault of a real SIGKILL of a child process running the bot.
const KILL9: &str = "kill -9 (child process) and restart";
const MIN: i64 = 60;
const HOUR: i64 = 3600;

/// The fault kinds, in the schedule's numbering.
const KINDS: i64 = 14;

/// How a race's state row was harmed.
#[derive(Clone, Copy, PartialEq)]
enum Harm {
    /// It decodes but lies.
    Lie,
    /// It does not decode.
    Garble,
    /// The disk page that holds it is damaged (SQLite only).
    Page,
}

/// The faults under way and past, as the schedule keeps them.
#[derive(Default)]
struct Spells {
    /// The bot's own downtimes.
    downtimes: Vec<Outage>,
    /// The races whose state row was harmed, and how.
    corrupted: Vec<(CampaignId, Harm)>,
    /// The page a failing disk damaged, to give back before the checks read every row.
    damaged: Option<Damage>,
    disk_full_until: Option<i64>,
    claims_fail_until: Option<i64>,
    /// When the requests left unanswered are answered again.
    hang_until: Option<i64>,
    /// The fault kinds not yet injected, in a seeded order (popped from the end).
    first: Vec<i64>,
}

/// Runs a soak and checks it; returns its figures (`problems` empty when it passed).
pub async fn run(soak: Soak) -> Figures {
    let mut w = World::new(soak.kind, soak.seed).await;
    let mut f = Figures::default();
    let mut spells = Spells::default();
    let end = w.now() + soak.days * 86_400_000;
    let mut started = 0;
    // Channel -> the race in it.
    let mut in_channel: BTreeMap<usize, CampaignId> = BTreeMap::new();
    let mut looks = 0u32;
    spells.first = (0..KINDS).collect();
    for i in (1..spells.first.len()).rev() {
        let j = usize::try_from(w.faults.range(0, i64::try_from(i).unwrap())).unwrap();
        spells.first.swap(i, j);
    }
    while w.now() < end || (!w.open_races().await.is_empty() && w.now() < end + 10 * 86_400_000) {
        looks += 1;
        // Free channels get the next race, the starts spread over the days, so that the
        // faults meet races all along.
        let begin = end - soak.days * 86_400_000;
        let spacing = soak.days * 86_400_000 / i64::try_from(soak.races.max(1)).unwrap();
        let next_at = begin + spacing * i64::try_from(started).unwrap();
        if started < soak.races && w.now() < end && w.now() >= next_at {
            for c in 0..soak.channels {
                let free = match in_channel.get(&c) {
                    None => true,
                    Some(id) => w.has_ended(*id).await,
                };
                let next_at = begin + spacing * i64::try_from(started).unwrap();
                if free && started < soak.races && w.now() >= next_at {
                    if let Some(id) = w.open_race(started, World::channel(c)).await {
                        in_channel.insert(c, id);
                        started += 1;
                    }
                    w.settle().await;
                }
            }
        }
        f.orders_sent += w.humans_rounds().await;
        // A host kicks a seat or hands it over, now and then: a kick first, then a
        // replace, so that a short soak sees both.
        if w.now() < end && w.changes.len() < soak.races / 2 && w.rng.chance(8) {
            let replace = !w.changes.is_empty() && (w.changes.len() == 1 || w.rng.chance(50));
            match w.change_seat(started, replace).await {
                Ok(Some(c)) => {
                    bump(
                        &mut f,
                        if c.new.is_some() {
                            "seat replaced"
                        } else {
                            "seat kicked"
                        },
                    );
                    w.changes.push(c);
                }
                Ok(None) => {}
                Err(e) => f.problems.push(e),
            }
        }
        // A fault, now and then.
        if w.now() < end && w.faults.chance(12) {
            inject(&mut w, &soak, &mut f, &mut spells).await;
        }
        if let Some(until) = spells.hang_until
            && w.now() >= until
        {
            w.fake.hang(Hang::Off);
            w.hanging.store(false, std::sync::atomic::Ordering::Relaxed);
            // Those still waiting are refused now, and their senders try again soon.
            w.careful.store(2, std::sync::atomic::Ordering::Relaxed);
            spells.hang_until = None;
        }
        if let Some(until) = spells.claims_fail_until
            && w.now() >= until
        {
            claims_fail(&w, &soak, false).await;
            spells.claims_fail_until = None;
        }
        if let Some(until) = spells.disk_full_until
            && w.now() >= until
        {
            let raw = w.raw().await;
            let sql = match soak.kind {
                Kind::Sqlite => "DROP TRIGGER IF EXISTS disk_full",
                Kind::Postgres => "DROP TRIGGER IF EXISTS disk_full ON events",
            };
            raw.execute(sql, vec![]).await;
            raw.close().await;
            spells.disk_full_until = None;
        }
        w.advance(soak.look_secs);
        w.settle().await;
        let _ = w.careful.fetch_update(
            std::sync::atomic::Ordering::Relaxed,
            std::sync::atomic::Ordering::Relaxed,
            |c| c.checked_sub(1),
        );
        if looks > 20_000 {
            f.problems.push("the soak did not end".into());
            break;
        }
    }
    f.races = started;
    let hung = w.fake.hung().len();
    if hung > 0 {
        f.faults
            .insert("requests left unanswered", u32::try_from(hung).unwrap());
    }
    if !w.leavers.is_empty() {
        f.faults
            .insert("lobby leave", u32::try_from(w.leavers.len()).unwrap());
    }
    if let Some(d) = spells.damaged.take() {
        damage::repair(&mut w, &d).await;
    }
    check::check(
        &mut w,
        &soak,
        &mut f,
        &spells.downtimes,
        &spells.corrupted.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
    )
    .await;
    w.kill_bot().await;
    f
}

/// Injects one fault chosen by the schedule.
async fn inject(w: &mut World, soak: &Soak, f: &mut Figures, spells: &mut Spells) {
    // Every kind once first, in a seeded order, so a short soak sees each; then at random.
    let kind = match spells.first.pop() {
        Some(k) => k,
        None => w.faults.range(0, KINDS - 1),
    };
    let Spells {
        downtimes,
        corrupted,
        damaged,
        disk_full_until,
        claims_fail_until,
        hang_until,
        first,
    } = spells;
    let on = soak.faults;
    match kind {
        0 if on.outages => outage(w, soak, f).await,
        1 if on.storms => {
            let n = usize::try_from(w.faults.range(3, 30)).unwrap();
            if w.faults.chance(50) {
                w.fake.inject(
                    "POST",
                    "/channels",
                    Fault::RateLimit {
                        retry_after: 1.0,
                        global: w.faults.chance(30),
                        body: true,
                        headers: true,
                    },
                    n,
                );
                bump(f, "429 storm");
            } else {
                let code = [500, 502, 503, 504][usize::try_from(w.faults.range(0, 3)).unwrap()];
                w.fake.inject("POST", "/channels", Fault::Status(code), n);
                w.fake
                    .inject("PATCH", "/channels", Fault::Status(code), n / 2);
                bump(f, "5xx burst");
            }
        }
        2 if on.gateway_drops => {
            let before = w.fake.identifies();
            let resumes = w.fake.resumes();
            if w.faults.chance(50) {
                w.fake.disconnect(Some(4000));
                bump(f, "gateway drop (resume)");
            } else {
                w.fake.invalid_session(false);
                bump(f, "gateway drop (no resume)");
            }
            w.fake.wait_reconnected(resumes + 1, before + 1).await;
        }
        3 if on.kills && w.bot.is_some() => kill(w, f).await,
        4 if on.clock_jumps => {
            let ahead = w.faults.chance(50);
            w.clock.jump_ms(if ahead { 3_600_000 } else { -3_600_000 });
            bump(f, if ahead { "clock +1h" } else { "clock -1h" });
        }
        // Three times: a state that decodes but lies (a Dream Mile runner's points left
        // made larger than it started with) while a Dream Mile race runs, one that does
        // not decode, and on SQLite one on a page of the disk that fails.
        5 if on.corrupt_one && corrupted.len() < 3 => {
            let open: Vec<CampaignId> = w
                .open_races()
                .await
                .into_iter()
                .filter(|id| !corrupted.iter().any(|(c, _)| c == id))
                .collect();
            let done = |h: Harm| corrupted.iter().any(|(_, d)| *d == h);
            let liar = w
                .races
                .iter()
                .find(|r| !done(Harm::Lie) && open.contains(&r.id) && r.game == "dream-mile")
                .map(|r| r.id);
            let (id, harm) = match (liar, open.first()) {
                (Some(id), _) => (id, Harm::Lie),
                (None, Some(&id)) if !done(Harm::Garble) => (id, Harm::Garble),
                (None, Some(&id)) if !done(Harm::Page) && soak.kind == Kind::Sqlite => {
                    (id, Harm::Page)
                }
                _ => {
                    // No race to harm now: at the next fault, then.
                    if corrupted.is_empty() {
                        first.push(kind);
                    }
                    return;
                }
            };
            if harm == Harm::Page {
                match damage::damage_page(w, id).await {
                    Some(d) => *damaged = Some(d),
                    None => return,
                }
            } else {
                let raw = w.raw().await;
                let sql = if harm == Harm::Lie {
                    "UPDATE campaign_states SET state = replace(state, '\"remaining\":', '\"remaining\":9') \
                     WHERE campaign_id = ?"
                } else {
                    "UPDATE campaign_states SET state = '{\"not\": \"a game\"}' WHERE campaign_id = ?"
                };
                raw.execute(sql, vec![Arg::I(id.0)]).await;
                raw.execute(
                    "UPDATE campaigns SET version = version + 1 WHERE id = ?",
                    vec![Arg::I(id.0)],
                )
                .await;
                raw.close().await;
            }
            corrupted.push((id, harm));
            bump(
                f,
                match harm {
                    Harm::Lie => "state row that decodes but lies",
                    Harm::Garble => "corrupted state row",
                    Harm::Page => "damaged page under a state row",
                },
            );
        }
        6 if on.disk_full && disk_full_until.is_none() => {
            if disk_full(w, soak).await {
                *disk_full_until = Some(w.now() + 2 * HOUR * 1000);
                bump(f, "disk full on commits");
            } else {
                first.push(kind);
            }
        }
        7 if on.lost_answers => {
            let n = usize::try_from(w.faults.range(1, 4)).unwrap();
            // Answers still to lose from an earlier fault are not stacked.
            let pending = w.answers_still_to_lose();
            if !pending {
                let lost = w
                    .fake
                    .requests()
                    .iter()
                    .filter(|r| r.refused.as_deref() == Some("asked: answer lost"))
                    .count();
                w.lost_told
                    .store(lost + n, std::sync::atomic::Ordering::Relaxed);
                w.fake.lose_next_answers(n);
            }
            w.careful.store(2, std::sync::atomic::Ordering::Relaxed);
            bump(f, "posts landed, answers lost");
        }
        8 if on.twins && w.bot.is_some() => {
            super::twins::hour_of_two(w, soak, f).await;
            bump(f, "two processes on one shard (1 h)");
        }
        9 if on.four_xx => {
            let (code, what) = [
                (401, "401 burst"),
                (403, "403 burst (no code)"),
                (404, "404 burst (no code)"),
                (408, "408 burst"),
                (413, "413 burst"),
            ][usize::try_from(w.faults.range(0, 4)).unwrap()];
            let n = usize::try_from(w.faults.range(3, 30)).unwrap();
            w.fake.inject("POST", "/channels", Fault::Status(code), n);
            w.fake
                .inject("PATCH", "/channels", Fault::Status(code), n / 2);
            bump(f, what);
        }
        10 if on.not_json => {
            let n = usize::try_from(w.faults.range(1, 4)).unwrap();
            w.fake.garble_next_answers(n);
            w.careful.store(2, std::sync::atomic::Ordering::Relaxed);
            bump(f, "posts landed, answered 200 not JSON");
        }
        11 if on.claims_fail && claims_fail_until.is_none() => {
            claims_fail(w, soak, true).await;
            *claims_fail_until = Some(w.now() + HOUR * 1000);
            bump(f, "disk full on the claims (1 h)");
        }
        12 if on.downtime && w.bot.is_some() => downtime(w, soak, f, downtimes).await,
        13 if on.hangs && hang_until.is_none() => {
            let open = w.channels_in_play().await;
            if w.faults.chance(50) && !open.is_empty() {
                let i = usize::try_from(w.faults.range(0, i64::try_from(open.len() - 1).unwrap()))
                    .unwrap();
                w.fake.hang(Hang::PostsIn(open[i]));
                bump(f, "posts in one channel never answered (30 min)");
            } else {
                w.fake.hang(Hang::Rest);
                bump(f, "no REST request answered (30 min)");
            }
            *hang_until = Some(w.now() + 30 * MIN * 1000);
            w.hanging.store(true, std::sync::atomic::Ordering::Relaxed);
            w.careful.store(2, std::sync::atomic::Ordering::Relaxed);
        }
        _ => {}
    }
}

/// A Discord outage of 1 minute to 6 hours: nothing answers, gateway or REST.
async fn outage(w: &mut World, soak: &Soak, f: &mut Figures) {
    let secs = if w.faults.chance(50) {
        w.faults.range(MIN, 30 * MIN)
    } else {
        w.faults.range(30 * MIN, 6 * HOUR)
    };
    let start = w.now();
    let open = check::unfired_deadlines(w, i64::MAX).await;
    // Nothing answers: the gateway, and every REST call (the bot's probe too).
    w.fake.gateway_down();
    w.fake.rest_down();
    if !w.wait_gateway_lost().await {
        f.problems.push(format!(
            "at {start} ms the bot never saw the gateway go down"
        ));
    }
    // Time passes in looks while Discord is out.
    let mut left = secs;
    while left > 0 {
        let step = left.min(soak.look_secs);
        w.advance(step);
        w.fake.settle(std::time::Duration::from_millis(150)).await;
        left -= step;
    }
    // No deadline fired while Discord was out (by row id: the clock also jumps back).
    let fired = check::fired_among(w, &open).await;
    if soak.checks.no_deadline_in_outage && !fired.is_empty() {
        f.problems.push(format!(
            "{} deadline(s) fired during an outage of {} min: rows {fired:?}",
            fired.len(),
            (w.now() - start) / 60_000
        ));
    }
    w.fake.rest_up();
    w.fake.clear_faults();
    let before = w.fake.identifies();
    let resumes = w.fake.resumes();
    w.fake.gateway_up();
    w.fake.wait_reconnected(resumes + 1, before + 1).await;
    bump(f, "outage");
}

/// The bot is down for 2 to 8 hours (stopped, as for an upgrade that went wrong), while
/// the humans write the DMs they owe; then it starts again on the same database.
async fn downtime(w: &mut World, soak: &Soak, f: &mut Figures, downtimes: &mut Vec<Outage>) {
    let planned = w.humans_plan().await;
    let start = w.now();
    w.kill_bot().await;
    let secs = w.faults.range(2 * HOUR, 8 * HOUR);
    let mut left = secs;
    let mut written = false;
    while left > 0 {
        let step = left.min(soak.look_secs);
        w.advance(step);
        left -= step;
        if !written {
            f.orders_sent += w.send_dms(&planned);
            written = true;
        }
    }
    let due = check::unfired_deadlines(w, w.now()).await;
    downtimes.push(Outage {
        start,
        end: w.now(),
        due,
    });
    w.start_bot().await;
    bump(f, "bot down 2-8 h, DMs written meanwhile");
}

/// Makes every claim of a deadline fail as a full disk would (`on`), or lets them pass.
async fn claims_fail(w: &World, soak: &Soak, on: bool) {
    let raw = w.raw().await;
    let sql: Vec<&str> = match (soak.kind, on) {
        (Kind::Sqlite, true) => vec![
            "CREATE TRIGGER claims_full BEFORE UPDATE ON deadlines \
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
        ],
        (Kind::Sqlite, false) => vec!["DROP TRIGGER IF EXISTS claims_full"],
        (Kind::Postgres, true) => vec![
            "CREATE OR REPLACE FUNCTION soak_disk_full() RETURNS trigger AS $$ \
             BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END \
             $$ LANGUAGE plpgsql",
            "CREATE TRIGGER claims_full BEFORE UPDATE ON deadlines FOR EACH ROW \
             EXECUTE FUNCTION soak_disk_full()",
        ],
        (Kind::Postgres, false) => vec!["DROP TRIGGER IF EXISTS claims_full ON deadlines"],
    };
    for q in sql {
        raw.execute(q, vec![]).await;
    }
    raw.close().await;
    w.claims_failing
        .store(on, std::sync::atomic::Ordering::Relaxed);
}

/// The bot stops (a real SIGKILL of a child that took over, or a stop in this process),
/// and starts again 1 minute to 3 hours later.
async fn kill(w: &mut World, f: &mut Figures) {
    // The first kill with DMs to hand, then every other one by the schedule, is a
    // real SIGKILL of a child process that took over (support/soak/child.rs); the
    // others stop the bot in this process.
    let mut planned = w.humans_plan().await;
    let real = !f.faults.contains_key(KILL9) || w.faults.chance(50);
    if real
        && planned.is_empty()
        && let Some((someone, _)) = w.races.first().and_then(|r| r.humans.first())
    {
        // Nobody owes an order: someone asks for help, so the child has work.
        planned.push((someone.clone(), "help".to_string()));
    }
    if real && !planned.is_empty() {
        // The humans' next DMs go to the child: its work, cut short after a
        // seeded number of posts and edits.
        f.orders_sent += planned.len();
        w.kill_bot().await;
        let work = usize::try_from(w.faults.range(1, 12)).unwrap();
        match w.sigkill_child(&planned, work).await {
            Ok(made) => f.killed_after.push(made),
            Err(e) => f.problems.push(format!("kill -9 at {} ms: {e}", w.now())),
        }
        bump(f, KILL9);
    } else {
        // A random point: orders in flight, not settled.
        f.orders_sent += w.send_dms(&planned);
        w.kill_bot().await;
        bump(f, "kill and restart");
    }
    let secs = w.faults.range(MIN, 3 * HOUR);
    // The fake's clock too: a restart later than its nonce window.
    w.advance(secs);
    w.start_bot().await;
}

/// Makes one open race's commits fail as a full disk would; false if no race is open.
async fn disk_full(w: &World, soak: &Soak) -> bool {
    let open = w.open_races().await;
    let Some(&id) = open.last() else {
        return false;
    };
    let raw = w.raw().await;
    match soak.kind {
        Kind::Sqlite => {
            raw.execute(&crate::support::backend::sqlite_disk_full(id.0), vec![])
                .await;
        }
        Kind::Postgres => {
            raw.execute(
                "CREATE OR REPLACE FUNCTION soak_disk_full() RETURNS trigger AS $$ \
                     BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END \
                     $$ LANGUAGE plpgsql",
                vec![],
            )
            .await;
            raw.execute(
                &format!(
                    "CREATE TRIGGER disk_full BEFORE INSERT ON events FOR EACH ROW \
                         WHEN (NEW.campaign_id = {}) EXECUTE FUNCTION soak_disk_full()",
                    id.0
                ),
                vec![],
            )
            .await;
        }
    }
    raw.close().await;
    true
}

pub(super) fn bump(f: &mut Figures, what: &'static str) {
    *f.faults.entry(what).or_insert(0) += 1;
}
