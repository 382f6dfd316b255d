//! Races after their end: the export of a race, its offline check (a tampered
//! order, receipt or seed is named), `replay` and `render` of the file, the refusal of a
//! race that is not over, and a server's archive.

use std::process::Command;

use crate::support::backend;
use crate::support::courier::{alice, bob, carol};
use backend::{Bench, Kind};
use photofinish::engine::BotLevel;
use photofinish::games::GameKind;
use photofinish::referee::export::{Export, read_export};
use photofinish::referee::verify::verify_export;
use photofinish::referee::{NewRace, RefereeError};
use photofinish::vocab::{CampaignId, Phase};
use serde_json::Value;

fn photofinish() -> Command {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
}

/// A race of `game`: Alice and bots; Alice leaves once it starts, so the bots play it out.
async fn a_race_of_bots(b: &Bench, game: GameKind) -> CampaignId {
    let id = b.race(game, &alice(), "").await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    let (min, _) = game.seat_limits(&game.default_options()).unwrap();
    b.referee
        .add_bots(id, &alice(), min.max(4) - 1, BotLevel::Heuristic)
        .await
        .unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    // Under `auto` with the default standing plays the race may already be over.
    if let Err(e) = b.referee.leave(id, &alice()).await {
        assert!(matches!(e, RefereeError::Finished), "{game}: {e:?}");
    }
    let mut guard = 0;
    while b.referee.overview(id).await.unwrap().phase != Phase::Finished {
        b.clock.advance_secs(7200);
        b.referee.tick().await.unwrap();
        guard += 1;
        assert!(guard < 200, "{game} did not finish");
    }
    id
}

/// A Dream Mile race of Alice, Bob and Carol, played by hand: Carol misses turn 2.
async fn a_race_of_three(b: &Bench) -> CampaignId {
    let id = b.race(GameKind::DreamMile, &alice(), "").await;
    for p in [alice(), bob(), carol()] {
        b.referee.join(id, &p, None, None).await.unwrap();
    }
    b.referee.start(id, &alice()).await.unwrap();
    for turn in 0..7 {
        b.referee.submit(id, &alice().user, "5").await.unwrap();
        b.referee.submit(id, &bob().user, "4").await.unwrap();
        if turn == 1 {
            // Carol misses the deadline: her default order is played.
            b.clock.advance_secs(7200);
            b.referee.tick().await.unwrap();
        } else {
            b.referee.submit(id, &carol().user, "6").await.unwrap();
        }
    }
    assert_eq!(b.referee.overview(id).await.unwrap().phase, Phase::Finished);
    id
}

/// Through the file's text, as a user would hold it.
fn round_trip(x: &Export) -> Export {
    read_export(&serde_json::to_string_pretty(x).unwrap()).unwrap()
}

async fn every_game_exports_and_its_file_verifies(kind: Kind) {
    for game in GameKind::all() {
        let b = Bench::new(kind).await;
        let id = a_race_of_bots(&b, game).await;
        let x = round_trip(&b.referee.export(id).await.unwrap());
        assert_eq!((x.format.as_str(), x.version), ("photofinish-race", 1));
        assert_eq!(x.game, game);
        assert!(x.seats.iter().filter(|s| s.bot.is_some()).count() >= 3);
        assert!(x.result.is_some(), "{game}: the result");
        let report = verify_export(&x);
        assert!(report.ok(), "{game}: {report:?}");
        assert_eq!(report.steps_checked, x.steps.len());
        assert!(report.receipts_checked > 0);
        // The database's own check agrees, and checks the receipts too.
        let stored = b.referee.verify(id).await.unwrap();
        assert!(stored.ok(), "{game}: {stored:?}");
        assert_eq!(stored.receipts_checked, report.receipts_checked);
        eprintln!("{game}: {} steps in the export", x.steps.len());
    }
}

async fn a_tampered_order_receipt_or_seed_is_named(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = a_race_of_three(&b).await;
    let x = round_trip(&b.referee.export(id).await.unwrap());
    assert!(verify_export(&x).ok());
    let missed = &x.steps[1].orders;
    assert!(
        missed
            .iter()
            .any(|o| o.source == photofinish::store::OrderSource::Default),
        "{missed:?}"
    );

    // One order's text changed: its receipt no longer matches, and the file says where.
    let mut t = x.clone();
    let o = t.steps[2]
        .orders
        .iter_mut()
        .find(|o| o.text == "5")
        .unwrap();
    o.text = "9".into();
    let r = verify_export(&t);
    assert!(!r.ok());
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("Turn 3 of 8 (step 3): Alice's receipt") && p.contains("`9`")),
        "{r:?}"
    );

    // The order the step applies changed too: the replayed events differ from the file's.
    let mut t = x.clone();
    let bobs = t.steps[0].orders[1].order.clone();
    t.steps[2].orders[0].order = bobs;
    let r = verify_export(&t);
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("Turn 3 of 8 (step 3)") && p.contains("events differ")),
        "{r:?}"
    );

    // One receipt changed.
    let mut t = x.clone();
    t.steps[4].orders[1].receipt = "0123456789".into();
    let r = verify_export(&t);
    assert_eq!(
        r.problems,
        vec![format!(
            "Turn 5 of 8 (step 5): Bob's receipt 0123456789 is not the hash of the order `4` with nonce {}",
            t.steps[4].orders[1].nonce
        )]
    );

    // Receipts are whole SHA-256 hashes, and the last digit counts: a receipt that
    // agrees in the ten digits a DM shows is still refused.
    assert!(
        x.steps
            .iter()
            .flat_map(|s| &s.orders)
            .all(|o| o.receipt.len() == 64 && o.receipt.chars().all(|c| c.is_ascii_hexdigit())),
        "{:?}",
        x.steps[0].orders
    );
    let mut t = x.clone();
    let r = &mut t.steps[4].orders[1].receipt;
    let last = if r.ends_with('0') { "1" } else { "0" };
    r.replace_range(63.., last);
    assert!(
        !verify_export(&t).ok(),
        "a receipt off in its last digit verifies"
    );

    // Another seed: it does not match the commitment published at the start.
    let mut t = x.clone();
    t.seed = "00".repeat(32);
    let r = verify_export(&t);
    assert!(!r.commitment_matches);
    assert!(
        r.problems
            .contains(&"the seed does not match the commitment published at the start".into()),
        "{r:?}"
    );

    // A result that is not the replayed one.
    let mut t = x.clone();
    if let Some(result) = t.result.as_mut() {
        result.swap(0, 1);
    }
    let r = verify_export(&t);
    assert!(
        r.problems
            .iter()
            .any(|p| p.contains("recorded result differs")),
        "{r:?}"
    );
}

/// The first number in `v`, replaced by `n`.
fn renumber(v: &mut Value, n: u64) -> bool {
    match v {
        Value::Number(_) => {
            *v = Value::from(n);
            true
        }
        Value::Array(a) => a.iter_mut().any(|x| renumber(x, n)),
        Value::Object(o) => o.values_mut().any(|x| renumber(x, n)),
        _ => false,
    }
}

/// Each problem verify finds, as one line, for the assertion's message.
fn has(r: &photofinish::referee::verify::VerifyReport, words: &str) -> bool {
    r.problems.iter().any(|p| p.contains(words))
}

/// Tampering the log can still determine: verify replays the orders against the state
/// they were played in, as the referee took them, and the phase against the replay.
/// Before, each of these files passed: the second half of the steps cut off with no
/// result; the phase made `cancelled`; an order for a seat the race does not have, or a
/// second order of one seat, each with its receipt recomputed; an order above the
/// runner's maximum, its receipt recomputed; a step after the race ended.
async fn orders_and_the_phase_are_checked_against_the_replay(kind: Kind) {
    use photofinish::engine::Seat;
    use photofinish::referee::work::receipt_for;
    let b = Bench::new(kind).await;
    let id = a_race_of_three(&b).await;
    let x = round_trip(&b.referee.export(id).await.unwrap());
    assert!(verify_export(&x).ok());
    let rehash = |t: &mut Export, step: usize, i: usize| {
        let (race, n) = (t.race, t.steps[step].step);
        let o = &mut t.steps[step].orders[i];
        o.receipt = receipt_for(race, n, o.seat, &o.text, &o.nonce);
    };

    // Half the steps cut off, the result removed: the file says finished.
    let mut t = x.clone();
    t.steps.truncate(t.steps.len() / 2);
    t.result = None;
    let r = verify_export(&t);
    assert!(has(&r, "says the race finished, yet"), "{r:?}");

    // The phase made `cancelled`.
    let mut t = x.clone();
    t.phase = Phase::Cancelled;
    let r = verify_export(&t);
    assert!(has(&r, "says the race was cancelled, yet"), "{r:?}");

    // An order for a seat the race does not have, its receipt recomputed.
    let mut t = x.clone();
    let mut extra = t.steps[0].orders[0].clone();
    extra.seat = Seat(7);
    t.steps[0].orders.push(extra);
    rehash(&mut t, 0, 3);
    let r = verify_export(&t);
    assert!(
        has(
            &r,
            "step 1): an order for seat 7, which the race does not have"
        ),
        "{r:?}"
    );

    // The same order twice.
    let mut t = x.clone();
    let twice = t.steps[0].orders[1].clone();
    t.steps[0].orders.push(twice);
    let r = verify_export(&t);
    assert!(has(&r, "step 1): Bob has more than one order"), "{r:?}");

    // A seat's order left out.
    let mut t = x.clone();
    t.steps[3].orders.remove(2);
    let r = verify_export(&t);
    assert!(has(&r, "step 4): Carol has no order"), "{r:?}");

    // An order above the runner's maximum, its text and receipt made to match.
    let mut t = x.clone();
    let mut order = serde_json::to_value(&t.steps[0].orders[0].order).unwrap();
    assert!(renumber(&mut order, 99), "{order}");
    t.steps[0].orders[0].order = serde_json::from_value(order).unwrap();
    t.steps[0].orders[0].text = "99".into();
    rehash(&mut t, 0, 0);
    let r = verify_export(&t);
    assert!(
        has(&r, "step 1): Alice's order `99` was not allowed"),
        "{r:?}"
    );

    // A step after the end.
    let mut t = x.clone();
    let mut after = t.steps.last().unwrap().clone();
    after.step += 1;
    t.steps.push(after);
    let r = verify_export(&t);
    assert!(has(&r, "a step recorded after the race was over"), "{r:?}");
}

/// What the replay cannot determine is held by the record's proof, which the bot posts
/// with the result: renaming the winner (seat and result alike), making a bot a person,
/// changing an order's source or a time each changes it, and each of those files
/// otherwise verifies. The writer's own fields do not count, and the database and the
/// file give the same proof.
async fn the_proof_holds_what_the_replay_cannot(kind: Kind) {
    use photofinish::referee::chain::proof;
    use photofinish::store::OrderSource;
    let b = Bench::new(kind).await;
    let id = a_race_of_three(&b).await;
    let x = round_trip(&b.referee.export(id).await.unwrap());
    let p = proof(&x);
    assert_eq!(p.len(), 64);
    assert_eq!(
        b.referee.verify(id).await.unwrap().proof,
        p,
        "the database agrees"
    );
    assert_eq!(verify_export(&x).proof, p);
    let mut same = x.clone();
    same.generator = "photofinish 9.9.9".into();
    assert_eq!(proof(&same), p, "the writer's own fields do not count");

    let winner = x.result.as_ref().unwrap()[0].seat;
    let mut renamed = x.clone();
    for s in renamed.seats.iter_mut().filter(|s| s.seat == winner) {
        s.name = "Mallory".into();
    }
    for r in renamed
        .result
        .iter_mut()
        .flatten()
        .filter(|r| r.seat == winner)
    {
        r.name = "Mallory".into();
    }
    let mut bot = x.clone();
    bot.seats[1].human = false;
    bot.seats[1].bot = Some(BotLevel::Heuristic);
    let mut source = x.clone();
    source.steps[0].orders[0].source = OrderSource::Bot;
    let mut time = x.clone();
    time.steps[2].resolved_at = time.steps[2].resolved_at.map(|t| t + 60_000);
    for (what, t) in [
        ("renamed", renamed),
        ("bot", bot),
        ("source", source),
        ("time", time),
    ] {
        let r = verify_export(&t);
        assert!(r.ok(), "{what}: the replay cannot tell: {r:?}");
        assert_ne!(r.proof, p, "{what}: the proof tells");
    }
}

async fn a_race_that_is_not_over_is_refused(kind: Kind) {
    let b = Bench::new(kind).await;
    let lobby = b.race(GameKind::DreamMile, &alice(), "").await;
    b.referee.join(lobby, &alice(), None, None).await.unwrap();
    b.referee.join(lobby, &bob(), None, None).await.unwrap();
    let refused = |r: Result<Export, RefereeError>| match r {
        Err(RefereeError::Invalid(why)) => why,
        other => panic!("{other:?}"),
    };
    let why = refused(b.referee.export(lobby).await);
    assert_eq!(
        why,
        format!(
            "race {lobby} is not over yet; it can be exported once it has finished or been cancelled"
        )
    );
    b.referee.start(lobby, &alice()).await.unwrap();
    b.referee.submit(lobby, &alice().user, "5").await.unwrap();
    let why = refused(b.referee.export(lobby).await);
    assert!(why.contains("not over yet"), "{why}");
    // Cancelled: over, so the seed is revealed and the file verifies up to the cancel.
    b.referee.cancel(lobby, &alice()).await.unwrap();
    let x = b.referee.export(lobby).await.unwrap();
    assert_eq!(x.phase, Phase::Cancelled);
    assert!(x.started && x.result.is_none());
    assert!(verify_export(&round_trip(&x)).ok());

    // Cancelled in its lobby: nothing was set up, and the seed still matches.
    let never = b.race(GameKind::DreamMile, &alice(), "").await;
    b.referee.cancel(never, &alice()).await.unwrap();
    let x = b.referee.export(never).await.unwrap();
    assert!(!x.started && x.steps.is_empty());
    let r = verify_export(&round_trip(&x));
    assert!(r.ok(), "{r:?}");
}

async fn a_server_archive_lists_its_races_and_refuses_another_servers(kind: Kind) {
    let b = Bench::new(kind).await;
    let first = a_race_of_three(&b).await;
    // The channel opens its next lobby: the finished race stays reachable.
    let second = b.race(GameKind::MilleBornes, &alice(), "").await;
    let elsewhere = b
        .referee
        .create(NewRace {
            kind: GameKind::DreamMile,
            options: String::new(),
            channel: "chan-9".into(),
            guild: Some("guild-9".into()),
            host: bob(),
        })
        .await
        .unwrap();
    let listed = b.referee.archive("guild-1", None).await.unwrap();
    let ids: Vec<CampaignId> = listed.iter().map(|e| e.race).collect();
    assert_eq!(ids, vec![second, first]);
    let result = b.referee.export(first).await.unwrap().result.unwrap();
    let winners: Vec<String> = result
        .iter()
        .filter(|p| p.rank == 1)
        .map(|p| p.name.clone())
        .collect();
    assert!(!winners.is_empty());
    assert_eq!(listed[1].winners, winners);
    assert_eq!(listed[1].phase, Phase::Finished);
    assert_eq!(listed[0].phase, Phase::Lobby);
    assert!(listed[0].winners.is_empty());
    // A page further back.
    let older = b.referee.archive("guild-1", Some(second)).await.unwrap();
    assert_eq!(
        older.iter().map(|e| e.race).collect::<Vec<_>>(),
        vec![first]
    );
    let user = alice().user;
    assert_eq!(
        b.referee
            .race_of_server(first, Some("guild-1"), &user)
            .await
            .unwrap(),
        first
    );
    match b
        .referee
        .race_of_server(elsewhere, Some("guild-1"), &user)
        .await
    {
        Err(RefereeError::Invalid(why)) => assert_eq!(
            why,
            format!("race {elsewhere} was not run on this server, so it can't be shown here")
        ),
        other => panic!("{other:?}"),
    }
    // An old turn of the first race, with the picture's view after it.
    let past = b.referee.past_turn(first, 2).await.unwrap();
    assert_eq!(past.entry.number, 2);
    assert!(past.view.is_some());
    let steps = u32::try_from(b.referee.export(first).await.unwrap().steps.len()).unwrap();
    let last = b.referee.past_turn(first, steps).await.unwrap().view;
    let now = b.referee.overview(first).await.unwrap().view;
    assert_eq!(last, now, "the last turn's view is the final one");
}

async fn ratings_recomputed_from_scratch_are_the_same(kind: Kind) {
    let b = Bench::new(kind).await;
    let first = a_race_of_three(&b).await;
    let after_one = b
        .referee
        .ratings("guild-1", GameKind::DreamMile)
        .await
        .unwrap();
    assert_eq!(after_one.len(), 3);
    assert!(after_one.iter().all(|r| r.races == 1 && !r.bot));
    let second = a_race_of_three(&b).await;
    assert!(second > first);
    // Another game and another server count apart.
    assert!(
        b.referee
            .ratings("guild-1", GameKind::MilleBornes)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        b.referee
            .ratings("guild-9", GameKind::DreamMile)
            .await
            .unwrap()
            .is_empty()
    );
    let table = b
        .referee
        .ratings("guild-1", GameKind::DreamMile)
        .await
        .unwrap();
    assert!(table.iter().all(|r| r.races == 2), "{table:?}");
    // The winner of both (the same orders twice) tops the table, with two wins.
    let result = b.referee.export(first).await.unwrap().result.unwrap();
    assert_eq!(table[0].name, result[0].name, "{table:?}");
    assert_eq!(table[0].wins, 2);
    assert!(table[0].mu > after_one[0].mu, "a second win raises it");
    // From scratch, by another referee over the same database: the very same numbers.
    let again = photofinish::referee::Referee::new(
        b.store.clone(),
        b.clock.clone(),
        photofinish::referee::Config::default(),
    );
    assert_eq!(
        again.ratings("guild-1", GameKind::DreamMile).await.unwrap(),
        table
    );
}

on_both!(
    ratings_recomputed_from_scratch_are_the_same,
    every_game_exports_and_its_file_verifies,
    a_tampered_order_receipt_or_seed_is_named,
    orders_and_the_phase_are_checked_against_the_replay,
    the_proof_holds_what_the_replay_cannot,
    a_race_that_is_not_over_is_refused,
    a_server_archive_lists_its_races_and_refuses_another_servers,
);

/// The command line: `export`, then `verify --file`, `replay` and `render` of the file;
/// a tampered file exits 1 and says what and where.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_exports_and_checks_a_file_offline() {
    let b = Bench::new(Kind::Sqlite).await;
    let id = a_race_of_three(&b).await;
    let running = b.race(GameKind::DreamMile, &bob(), "").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("race.json");
    let out = photofinish()
        .args(["export", &id.0.to_string(), "--db", &b.db.url, "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A lobby is refused in one line, exit 2, and no file.
    let out = photofinish()
        .args(["export", &running.0.to_string(), "--db", &b.db.url])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not over yet"), "{err}");
    assert!(out.stdout.is_empty());

    // Offline: no database at all.
    let verify = |path: &std::path::Path| {
        photofinish()
            .args(["verify", "--file"])
            .arg(path)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = verify(&file);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let x: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let orders: usize = x["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["orders"].as_array().unwrap().len())
        .sum();
    let steps = x["steps"].as_array().unwrap().len();
    assert!(
        text.contains(&format!("{steps} steps and"))
            && text.contains(&format!("{orders} receipts checked")),
        "{text}"
    );
    assert!(text.contains("verified: every random outcome"), "{text}");
    let file_proof = {
        let x = read_export(&std::fs::read_to_string(&file).unwrap()).unwrap();
        photofinish::referee::chain::proof(&x)
    };
    assert!(
        text.contains(&format!("proof {file_proof} (compare")),
        "{text}"
    );

    // `replay` prints every step and the result; `render` draws every turn and the chart.
    let out = photofinish().arg("replay").arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["steps"].as_array().unwrap().len(), steps);
    assert_eq!(json["finished"], true);
    assert_eq!(json["result"], x["result"]);
    let pictures = dir.path().join("pictures");
    let out = photofinish()
        .arg("render")
        .arg(&file)
        .arg("--out")
        .arg(&pictures)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(pictures.join("turn-01.png").exists());
    assert!(pictures.join("race-chart.png").exists());

    // One receipt tampered with: exit 1, and the report names the turn and the seat.
    let mut x: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    x["steps"][3]["orders"][0]["receipt"] = "ffffffffff".into();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&x).unwrap()).unwrap();
    let out = verify(&bad);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("problem: Turn 4 of 8 (step 4): Alice's receipt ffffffffff is not the hash of the order `5`"),
        "{text}"
    );
    assert!(text.contains("NOT verified"), "{text}");
    // `replay` refuses it: a tampered file would draw a race that never was.
    let out = photofinish().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not verify"));
    // Not an export at all, and a newer version: one line each, exit 2.
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"format": "photofinish-race", "version": 7}"#).unwrap();
    let out = verify(&other);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("export version 7"));
}

mod discord {
    //! The archive in Discord, through the fake Discord on loopback.

    use crate::support::discord::*;
    use photofinish::referee::export::read_export;
    use photofinish::referee::verify::verify_export;
    use photofinish::vocab::{CampaignId, Phase, UserId};
    use serde_json::{Value, json};

    /// The files the bot uploaded with its answers since request `from` (not the
    /// channel's posts).
    fn answer_uploads(h: &Harness, from: usize) -> Vec<Upload> {
        h.fake
            .requests()
            .into_iter()
            .skip(from)
            .filter(|r| !r.path.starts_with("/channels/"))
            .flat_map(|r| r.uploads)
            .collect()
    }

    /// Runs a slash command and returns its answer and the files that came with it.
    async fn slash_with_files(
        h: &Harness,
        user: &User,
        sub: &str,
        options: &[(&str, Value)],
    ) -> (Value, Vec<Upload>) {
        h.settle().await;
        let from = h.fake.request_count();
        let answer = h.slash(user, sub, options).await;
        (answer, answer_uploads(h, from))
    }

    /// Race #1: Alice against one bot, Dream Mile, played to the end (Alice's orders go
    /// straight to the referee: how they arrive is other tests' business).
    async fn a_finished_race(h: &Harness, alice: &User) {
        h.open_lobby("dream-mile", "", alice, &[], 1).await;
        let a = h.slash(alice, "start", &[]).await;
        assert!(text_of(&a).contains("is off"), "{a}");
        let me = UserId::new(alice.id.to_string());
        let referee = h.referee();
        let mut guard = 0;
        while referee.overview(CampaignId(1)).await.unwrap().phase != Phase::Finished {
            referee.submit(CampaignId(1), &me, "5").await.unwrap();
            guard += 1;
            assert!(guard < 10, "the race did not finish");
        }
        h.settle().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn old_races_stay_reachable_after_a_new_lobby_opens() {
        let h = Harness::start().await;
        let alice = User::new(101, "Alice");
        let bob = User::new(102, "Bob");
        a_finished_race(&h, &alice).await;
        // The channel's next race opens: race #1 is no longer "the race here".
        let a = h.slash(&bob, "new", &[("game", json!("1500m"))]).await;
        assert!(text_of(&a).contains("race #2 is open"), "{a}");

        // The archive lists both, newest first, with game, result and channel.
        let a = h.slash(&bob, "archive", &[]).await;
        assert!(is_ephemeral(&a));
        let t = text_of(&a);
        let two = t.find("Race #2 · 1500m").expect(&t);
        let one = t.find("Race #1 · Dream Mile").expect(&t);
        assert!(two < one, "{t}");
        assert!(t.contains("in its lobby"), "{t}");
        assert!(t.contains("won by **"), "{t}");
        assert!(t.contains(&format!("<#{CHANNEL}>")), "{t}");

        // History of the old race: its standings as text and the picture of that turn.
        let (a, files) = slash_with_files(
            &h,
            &bob,
            "history",
            &[("turn", json!(2)), ("race", json!(1))],
        )
        .await;
        let t = text_of(&a);
        assert!(t.contains("Race #1, turn 2"), "{t}");
        assert!(t.contains("Orders and receipts"), "{t}");
        assert!(t.contains("Alice"), "{t}");
        assert_eq!(files.len(), 1, "{a}");
        assert_eq!(files[0].filename, "race-1-turn-02.png");
        assert!(files[0].bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        // Without race:, the channel's race is the new lobby, with no turn played.
        let a = h.slash(&bob, "history", &[("turn", json!(2))]).await;
        assert!(text_of(&a).contains("hasn't been played yet"), "{a}");

        // Export and verify of the old race; the lobby's export is refused.
        let (a, files) = slash_with_files(&h, &bob, "export", &[("race", json!(1))]).await;
        assert!(is_ephemeral(&a));
        assert!(text_of(&a).contains("Race #1 exported"), "{a}");
        assert_eq!(files.len(), 1, "{a}");
        assert_eq!(files[0].filename, "race-1.json");
        let x = read_export(std::str::from_utf8(&files[0].bytes).unwrap()).unwrap();
        assert_eq!(x.race, 1);
        assert!(x.seats.iter().any(|s| s.bot.is_some()));
        let report = verify_export(&x);
        assert!(report.ok(), "{report:?}");
        let a = h.slash(&bob, "export", &[]).await;
        assert!(text_of(&a).contains("Race #2 is not over yet"), "{a}");
        let a = h.slash(&bob, "verify", &[("race", json!(1))]).await;
        assert!(text_of(&a).contains("Verified"), "{a}");

        // The leaderboard: Alice and the bot, one race each, the bot marked.
        let a = h
            .slash(&bob, "archive", &[("game", json!("dream-mile"))])
            .await;
        let t = text_of(&a);
        assert!(t.contains("Dream Mile: ratings on this server"), "{t}");
        assert!(t.contains("**Alice** "), "{t}");
        assert!(t.contains("**Bot 1** (bot)"), "{t}");
        assert_eq!(t.matches("(1 race,").count(), 2, "{t}");
        assert_eq!(t.matches(" 1 win)").count(), 1, "{t}");
        let a = h.slash(&bob, "archive", &[("game", json!("1500m"))]).await;
        assert!(
            text_of(&a).contains("No race of this game has finished"),
            "{a}"
        );

        // Another server's member cannot reach race #1 by its number.
        let id = h
            .fake
            .slash_in_guild(&bob, CHANNEL, 900, "export", &[("race", json!(1))]);
        let a = h.fake.response(id).await;
        assert!(
            text_of(&a).contains("Race #1 was not run on this server"),
            "{a}"
        );
        let id = h.fake.slash_in_guild(
            &bob,
            CHANNEL,
            900,
            "history",
            &[("turn", json!(1)), ("race", json!(1))],
        );
        let a = h.fake.response(id).await;
        assert!(text_of(&a).contains("not run on this server"), "{a}");
        assert_discord_was_happy(&h);
    }
}

mod round_trip {
    //! The export round trip as a property, over random races of every game on the engine
    //! alone: a race's file reads back as itself, verifies, replays every step, and a
    //! receipt or order changed anywhere is caught and named by its step.
    //! (40 cases, about a second; raise `with_cases` to search longer.)

    use photofinish::engine::{BotLevel, GameRng, Mode, Seat, SeatSetup, Seed, Submitted};
    use photofinish::games::GameKind;
    use photofinish::referee::export::{
        EXPORT_FORMAT, EXPORT_VERSION, Export, ExportOrder, ExportPlacing, ExportSeat, ExportStep,
        read_export,
    };
    use photofinish::referee::verify::{replay_export, verify_export};
    use photofinish::referee::work::receipt_for;
    use photofinish::store::OrderSource;
    use photofinish::vocab::Phase;
    use proptest::prelude::*;

    /// A whole race of random bots, one in five orders missed (the default played), as
    /// its export.
    fn random_race(kind: GameKind, seed: u64) -> Export {
        let options = kind.default_options();
        let (min, max) = kind.seat_limits(&options).unwrap();
        let n = 3usize.clamp(min, max);
        let seats: Vec<SeatSetup> = (0..n).map(|i| SeatSetup::named(format!("P{i}"))).collect();
        let revealed = Seed::from_u64(seed);
        let mut game = kind.setup(&options, &seats, revealed).unwrap();
        let mut rng = GameRng::from_seed(revealed.derive("round-trip"));
        let race = i64::try_from(seed % 1000).unwrap() + 1;
        let mut steps = Vec::new();
        while game.outcome().is_none() {
            assert!(steps.len() < 5000, "{kind} did not end");
            let step = u32::try_from(steps.len()).unwrap();
            let pending = game.pending();
            let who: Vec<Seat> = match pending.mode {
                Mode::All => pending.seats.clone(),
                Mode::Any => pending.seats.first().copied().into_iter().collect(),
            };
            let mut orders = Vec::new();
            for seat in who {
                let (order, source) = if rng.below(5) == 0 {
                    (game.default_order(seat), OrderSource::Default)
                } else {
                    (
                        game.bot_order(seat, BotLevel::Random, &mut rng),
                        OrderSource::Bot,
                    )
                };
                let text = game.format_order(seat, &order);
                let nonce = format!("{:016x}", rng.next_u64());
                orders.push(ExportOrder {
                    seat,
                    receipt: receipt_for(race, step, seat, &text, &nonce),
                    text,
                    order,
                    source,
                    nonce,
                });
            }
            let submitted: Vec<_> = orders
                .iter()
                .map(|o| Submitted {
                    seat: o.seat,
                    order: o.order.clone(),
                    missed: o.source == OrderSource::Default,
                })
                .collect();
            let events = game.apply(&submitted);
            steps.push(ExportStep {
                step,
                label: pending.label.clone(),
                late: false,
                opened_at: 0,
                resolved_at: Some(0),
                orders,
                events,
            });
        }
        let name = |s: Seat| format!("P{}", s.0);
        Export {
            format: EXPORT_FORMAT.into(),
            version: EXPORT_VERSION,
            generator: "test".into(),
            race,
            game: kind,
            options_text: kind.describe_options(&options),
            options,
            phase: Phase::Finished,
            created_at: 0,
            ended_at: Some(0),
            started: true,
            seats: (0..n)
                .map(|i| ExportSeat {
                    seat: Seat(u8::try_from(i).unwrap()),
                    name: format!("P{i}"),
                    bot: Some(BotLevel::Random),
                    human: false,
                    choice: None,
                })
                .collect(),
            commitment: revealed.commitment(),
            seed: revealed.to_hex(),
            preferences: Vec::new(),
            steps,
            result: game.outcome().map(|o| {
                o.placings
                    .iter()
                    .map(|p| ExportPlacing {
                        seat: p.seat,
                        name: name(p.seat),
                        rank: p.rank,
                        score: p.score,
                    })
                    .collect()
            }),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn an_export_verifies_replays_and_catches_a_change(
            which in 0usize..5,
            seed in any::<u64>(),
            pick in any::<u64>(),
        ) {
            let kind = GameKind::all().nth(which).unwrap();
            let x = random_race(kind, seed);
            let text = serde_json::to_string(&x).unwrap();
            let back = read_export(&text).unwrap();
            prop_assert_eq!(&back, &x);
            let report = verify_export(&back);
            prop_assert!(report.ok(), "{}: {:?}", kind, report);
            prop_assert_eq!(report.steps_checked, x.steps.len());
            let mut replayed = 0;
            replay_export(&back, |_, _, _| replayed += 1);
            prop_assert_eq!(replayed, x.steps.len());

            // One receipt changed, in a random step that has orders.
            let with_orders: Vec<usize> = (0..x.steps.len())
                .filter(|&i| !x.steps[i].orders.is_empty())
                .collect();
            prop_assume!(!with_orders.is_empty());
            let i = with_orders[usize::try_from(pick % with_orders.len() as u64).unwrap()];
            let mut t = back.clone();
            t.steps[i].orders[0].receipt = "zzzzzzzzzz".into();
            let r = verify_export(&t);
            let at = format!("{} (step {})", t.steps[i].label, i + 1);
            prop_assert!(!r.ok());
            prop_assert!(
                r.problems.iter().any(|p| p.starts_with(&at) && p.contains("receipt zzzzzzzzzz")),
                "{:?}", r.problems
            );
        }
    }
}
