//! While Discord cannot be reached, deadlines are held, not fired; when it is back, each
//! race is told once how long the outage was and where its deadline now falls, and the
//! deadlines move on by the outage (docs/reliability.md). On the test clock, the
//! adapter's signs of life played by hand (`Reach::contact`), as the Discord adapter gives
//! them (a shard connected, a REST call answered); deliveries count as signs too.

use crate::support::backend::{Bench, Kind};
use crate::support::courier::Recorder;
use photofinish::vocab::CampaignId;

const HOUR: i64 = 3_600_000;
const MINUTE: i64 = 60_000;

/// The outage notices queued for a race.
async fn notices(b: &Bench, id: CampaignId) -> Vec<String> {
    b.store
        .outbox_of(id)
        .await
        .unwrap()
        .iter()
        .filter_map(|r| r.payload["text"].as_str().map(String::from))
        .filter(|t| t.contains("could not be reached"))
        .collect()
}

/// Two races with hour-long turns, on a referee that watches Discord (3-minute window),
/// their first posts delivered.
async fn two_watched_races(b: &Bench) -> (CampaignId, CampaignId) {
    let one = b.three_runners("chan-1", "turn=1h resolve=deadline").await;
    let two = b.three_runners("chan-2", "turn=1h resolve=deadline").await;
    let reach = b.referee.reach();
    reach.watch(3 * MINUTE);
    reach.contact(b.clock.now_ms());
    b.referee.deliver(&Recorder::default()).await.unwrap();
    (one, two)
}

/// Three hours without Discord, with both races' deadlines inside them: nothing fires
/// during the outage; afterwards each race gets one notice and a deadline three hours
/// later; each deadline then fires once.
async fn a_three_hour_outage_holds_the_deadlines_and_tells_each_race_once(kind: Kind) {
    let b = Bench::new(kind).await;
    let (one, two) = two_watched_races(&b).await;
    let reach = b.referee.reach();
    let due_one = b.referee.overview(one).await.unwrap().deadline.unwrap();
    let due_two = b.referee.overview(two).await.unwrap().deadline.unwrap();

    // Twenty minutes in, Discord goes: no sign of life from here on.
    b.clock.advance_secs(20 * 60);
    reach.contact(b.clock.now_ms());
    b.referee.tick().await.unwrap();
    let lost = b.clock.now_ms();
    for _ in 0..36 {
        // Five-minute ticks through three hours, past both deadlines.
        b.clock.advance_secs(5 * 60);
        assert_eq!(b.referee.tick().await.unwrap(), 0, "nothing fires");
    }
    assert!(b.clock.now_ms() > due_one && b.clock.now_ms() > due_two);
    for id in [one, two] {
        assert_eq!(
            b.step_of(id).await,
            0,
            "no deadline fired during the outage"
        );
        assert!(notices(&b, id).await.is_empty());
    }
    // Discord is back.
    let back = b.clock.now_ms();
    reach.contact(back);
    b.referee.tick().await.unwrap();
    b.referee.tick().await.unwrap();
    let outage = back - lost;
    assert_eq!(outage, 3 * HOUR);
    for (id, due) in [(one, due_one), (two, due_two)] {
        let told = notices(&b, id).await;
        assert_eq!(told.len(), 1, "one notice per race: {told:?}");
        assert!(told[0].contains("about 3 hours"), "{}", told[0]);
        let now_due = b.referee.overview(id).await.unwrap().deadline.unwrap();
        assert_eq!(now_due, due + outage, "the deadline moved on by the outage");
        assert_eq!(b.step_of(id).await, 0);
    }
    // Each held deadline fires once, when its new time comes.
    b.clock.advance_secs((due_one + outage - back) / 1000 + 1);
    reach.contact(b.clock.now_ms());
    b.referee.tick().await.unwrap();
    b.clock.advance_secs(60);
    reach.contact(b.clock.now_ms());
    b.referee.tick().await.unwrap();
    b.referee.tick().await.unwrap();
    for id in [one, two] {
        assert_eq!(b.step_of(id).await, 1, "the held deadline fired, once");
        let log = b.store.log(id).await.unwrap();
        assert_eq!(log.len(), 1, "step 0 resolved once");
        assert_eq!(notices(&b, id).await.len(), 1, "told once");
    }
}

/// A referee nobody watches Discord for (the terminal, the other tests) is never held: a
/// deadline three hours late fires at once.
async fn an_unwatched_referee_is_never_held(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "turn=1h resolve=deadline").await;
    b.referee.reach().contact(b.clock.now_ms());
    b.clock.advance_secs(3 * 3600);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(id).await, 1);
}

/// A hold that cannot commit (a full disk as one race's held deadline is written) is
/// owed, not dropped:
/// that race's deadline, overdue at its old time, does not fire while the hold is owed;
/// once the disk has room the hold commits, and the deadline fires at its new time, once.
async fn a_hold_that_cannot_commit_is_tried_again_before_its_deadline_fires(kind: Kind) {
    if kind != Kind::Sqlite {
        return; // the trigger is SQLite's; the rule is the same on PostgreSQL
    }
    let b = Bench::new(kind).await;
    let (one, two) = two_watched_races(&b).await;
    let reach = b.referee.reach();
    let due_one = b.referee.overview(one).await.unwrap().deadline.unwrap();
    b.referee.tick().await.unwrap();
    let lost = b.clock.now_ms();
    for _ in 0..36 {
        b.clock.advance_secs(5 * 60);
        b.referee.tick().await.unwrap();
    }
    // Only the held deadline is refused: its race's turn could still resolve.
    let back = b.clock.now_ms();
    let raw = b.db.raw().await;
    raw.execute(
        &format!(
            "CREATE TRIGGER hold_full BEFORE INSERT ON deadlines
             WHEN NEW.campaign_id = {} AND NEW.due_at = {}
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
            one.0,
            due_one + (back - lost)
        ),
        vec![],
    )
    .await;
    reach.contact(back);
    for _ in 0..5 {
        b.clock.advance_secs(60);
        reach.contact(b.clock.now_ms());
        b.referee.tick().await.unwrap();
    }
    assert_eq!(b.step_of(one).await, 0, "no deadline fired at its old time");
    assert!(
        notices(&b, one).await.is_empty(),
        "its hold has not committed"
    );
    assert_eq!(notices(&b, two).await.len(), 1, "the other race is held");
    raw.execute("DROP TRIGGER hold_full", vec![]).await;
    raw.close().await;
    b.clock.advance_secs(60);
    reach.contact(b.clock.now_ms());
    b.referee.tick().await.unwrap();
    let outage = back - lost;
    assert_eq!(
        notices(&b, one).await.len(),
        1,
        "told once, when the hold committed"
    );
    let now_due = b.referee.overview(one).await.unwrap().deadline.unwrap();
    assert_eq!(now_due, due_one + outage, "moved on by the outage");
    assert_eq!(b.step_of(one).await, 0);
    b.clock
        .advance_secs((now_due - b.clock.now_ms()) / 1000 + 1);
    reach.contact(b.clock.now_ms());
    b.referee.tick().await.unwrap();
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(one).await, 1, "fired at its new time");
    assert_eq!(b.store.log(one).await.unwrap().len(), 1, "once");
    assert_eq!(notices(&b, one).await.len(), 1, "told once");
}

on_both!(
    a_hold_that_cannot_commit_is_tried_again_before_its_deadline_fires,
    a_three_hour_outage_holds_the_deadlines_and_tells_each_race_once,
    an_unwatched_referee_is_never_held,
);

/// Orders a seat of race 1 holds for `step`, by user id (read from the database).
async fn orders_at(h: &crate::support::discord::Harness, step: i64) -> Vec<(String, String)> {
    use sqlx::Connection;
    let url = format!("sqlite://{}", h.db().display());
    let mut c = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT s.user_id, o.text FROM orders o JOIN seats s \
         ON s.campaign_id = o.campaign_id AND s.seat = o.seat \
         WHERE o.campaign_id = 1 AND o.step = ? AND o.superseded = 0 ORDER BY s.seat",
    )
    .bind(step)
    .fetch_all(&mut c)
    .await
    .unwrap();
    let _ = c.close().await;
    rows
}

/// DMs written while the bot could not hear them, then a session that could not resume
/// (READY, not RESUMED: Discord never sends them): read back from the DM channels and
/// handled once; the players' older DMs, handled before, are not played again, even by a
/// fresh process whose memory of handled ids is empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_missed_while_the_gateway_could_not_resume_is_handled_once() {
    use crate::support::discord::*;
    let mut h = Harness::start().await;
    let alice = User::new(1501, "Alice");
    let bob = User::new(1502, "Bob");
    h.open_race("dream-mile", "turn=24h", &alice, &[&bob]).await;
    // Turn 1, live: both order, and the turn resolves.
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "4");
    h.fake.wait_dm(alice.id, n + 1).await;
    let n = h.fake.dms_to(bob.id).len();
    h.fake.dm(&bob, "3");
    h.fake.wait_dm(bob.id, n + 1).await;
    h.settle().await;
    assert_eq!(orders_at(&h, 0).await.len(), 2);
    let is_receipt = |m: &serde_json::Value| text_of(m).contains("Receipt `");
    let receipts =
        |h: &Harness, user: u64| h.fake.dms_to(user).iter().filter(|m| is_receipt(m)).count();
    let (alice_receipts, bob_receipts) = (receipts(&h, alice.id), receipts(&h, bob.id));

    // Two hours on (the store's claims of those DMs have expired), the bot goes down;
    // Alice writes her next order meanwhile; a fresh process connects (READY).
    h.advance(2 * 3600);
    h.settle().await;
    h.stop_bot().await;
    h.fake.dm(&alice, "6");
    h.start_bot().await;
    h.fake
        .wait_dm_matching(alice.id, "the receipt of the missed order", |m| {
            is_receipt(m) && text_of(m).contains("`6`")
        })
        .await;
    h.settle().await;
    assert_eq!(
        orders_at(&h, 1).await,
        vec![(alice.id.to_string(), "6".to_string())],
        "Alice's missed order, and nothing old of Bob's"
    );
    assert_eq!(receipts(&h, alice.id), alice_receipts + 1);
    assert_eq!(
        receipts(&h, bob.id),
        bob_receipts,
        "Bob's old DM is not played again"
    );

    // The gateway goes away; Bob writes; the session cannot resume.
    let identifies = h.fake.identifies();
    h.fake.gateway_down();
    h.fake.dm(&bob, "2");
    h.fake.refuse_next_resume();
    h.fake.gateway_up();
    h.fake.wait_reconnected(usize::MAX, identifies + 1).await;
    h.fake
        .wait_dm_matching(bob.id, "the receipt of Bob's missed order", |m| {
            is_receipt(m) && text_of(m).contains("`2`")
        })
        .await;
    h.settle().await;
    assert_eq!(orders_at(&h, 1).await.len(), 2, "the turn has both orders");
    assert_eq!(receipts(&h, bob.id), bob_receipts + 1);
    // Another session that cannot resume: nothing is handled again.
    let identifies = h.fake.identifies();
    h.fake.disconnect(None);
    h.fake.refuse_next_resume();
    h.fake.wait_reconnected(usize::MAX, identifies + 1).await;
    h.settle().await;
    assert_eq!(receipts(&h, alice.id), alice_receipts + 1, "handled once");
    assert_eq!(receipts(&h, bob.id), bob_receipts + 1, "handled once");
    h.stop_bot().await;
}

/// The bot stops after handling a DM order and answering it, but before remembering the
/// DM as seen (`dm_seen` still names the player's previous DM), and comes back more than
/// an hour later, when the DM's claim would have expired. The catch-up of missed DMs
/// reads the DM again: it must not play it again, least of all on the next turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_handled_before_a_crash_but_not_marked_seen_is_not_played_again() {
    use crate::support::discord::*;
    use sqlx::Connection;
    let mut h = Harness::start().await;
    let alice = User::new(1701, "Alice");
    let bob = User::new(1702, "Bob");
    h.open_race("dream-mile", "turn=24h", &alice, &[&bob]).await;
    let order = |h: &Harness, user: &User, text: &str| {
        let n = h.fake.dms_to(user.id).len();
        h.fake.dm(user, text);
        n
    };
    // Turn 1, live: both order; Alice's DM is remembered as seen.
    let n = order(&h, &alice, "4");
    h.fake.wait_dm(alice.id, n + 1).await;
    let n = order(&h, &bob, "3");
    h.fake.wait_dm(bob.id, n + 1).await;
    h.settle().await;
    let url = format!("sqlite://{}", h.db().display());
    let mut c = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
    // Turn 2: Bob, then Alice, whose order resolves the turn and opens turn 3 (she owes).
    let n = order(&h, &bob, "2");
    h.fake.wait_dm(bob.id, n + 1).await;
    // From here the bot cannot remember Alice's DMs as seen: the state a stop right
    // after her answer leaves.
    for sql in [
        "CREATE TRIGGER no_seen_insert BEFORE INSERT ON dm_seen WHEN NEW.user_id = '1701' \
         BEGIN SELECT RAISE(ABORT, 'stopped before this'); END",
        "CREATE TRIGGER no_seen_update BEFORE UPDATE ON dm_seen WHEN NEW.user_id = '1701' \
         BEGIN SELECT RAISE(ABORT, 'stopped before this'); END",
    ] {
        sqlx::query(sql).execute(&mut c).await.unwrap();
    }
    let n = order(&h, &alice, "5");
    h.fake.wait_dm(alice.id, n + 1).await;
    h.settle().await;
    assert_eq!(orders_at(&h, 1).await.len(), 2, "turn 2 has both orders");
    let is_receipt = |m: &serde_json::Value| text_of(m).contains("Receipt `");
    let receipts =
        |h: &Harness, user: u64| h.fake.dms_to(user).iter().filter(|m| is_receipt(m)).count();
    let alice_receipts = receipts(&h, alice.id);
    // The stop: answered, but `dm_seen` never moved past her turn-1 DM.
    h.stop_bot().await;
    for sql in ["DROP TRIGGER no_seen_insert", "DROP TRIGGER no_seen_update"] {
        sqlx::query(sql).execute(&mut c).await.unwrap();
    }
    let _ = c.close().await;
    // Back two hours later (past the claim's hour): a fresh process, READY.
    h.advance(2 * 3600);
    let from = h.fake.request_count();
    let dm = h.fake.dm_channel(alice.id).unwrap();
    h.start_bot().await;
    // The catch-up has read Alice's DM channel (a wait, not a timing).
    let read = format!("/channels/{dm}/messages");
    for _ in 0..200 {
        let asked = h
            .fake
            .requests()
            .iter()
            .skip(from)
            .any(|r| r.is("GET", &read));
        if asked {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        h.fake
            .requests()
            .iter()
            .skip(from)
            .any(|r| r.is("GET", &read)),
        "the catch-up read Alice's DMs"
    );
    h.settle().await;
    assert_eq!(
        orders_at(&h, 2).await,
        Vec::<(String, String)>::new(),
        "Alice's turn-2 DM was played again, on turn 3"
    );
    assert_eq!(
        receipts(&h, alice.id),
        alice_receipts,
        "Alice's turn-2 DM was answered twice"
    );
    h.stop_bot().await;
}

/// Through the fake Discord: the gateway and REST both down for three hours with the
/// turn's deadline inside them. The bot holds the deadline; when Discord is back the
/// channel gets one notice with the outage's length and the new deadline, and the turn
/// resolves once, at its new time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_down_for_three_hours_holds_the_deadline() {
    use crate::support::discord::*;
    let h = Harness::start().await;
    let alice = User::new(1601, "Alice");
    let bob = User::new(1602, "Bob");
    h.open_race("dream-mile", "turn=1h resolve=deadline", &alice, &[&bob])
        .await;
    let race = h.referee().race_in(&CHANNEL.to_string()).await.unwrap();
    let due = h.referee().overview(race).await.unwrap().deadline.unwrap();
    let step = |h: &Harness| {
        let r = h.referee();
        async move { r.overview(race).await.unwrap().label }
    };
    let first = step(&h).await;
    h.fake.gateway_down();
    h.fake.rest_down();
    // Three hours in five-minute steps: each wakes the workers, as time would.
    for _ in 0..36 {
        h.advance(300);
        h.fake.settle(std::time::Duration::from_millis(50)).await;
    }
    assert!(h.clock.now_ms() > due + 3_600_000);
    assert_eq!(step(&h).await, first, "no deadline fired during the outage");
    let notice =
        |m: &serde_json::Value| in_channel(m) && text_of(m).contains("could not be reached");
    assert!(!h.fake.messages().iter().any(notice));
    // Discord is back.
    let identifies = h.fake.identifies();
    h.fake.rest_up();
    h.fake.gateway_up();
    h.fake.wait_reconnected(usize::MAX, identifies + 1).await;
    for _ in 0..4 {
        h.advance(300);
        h.settle().await;
    }
    let told: Vec<serde_json::Value> = h
        .fake
        .messages()
        .into_iter()
        .filter(|m| notice(m))
        .collect();
    assert_eq!(told.len(), 1, "one notice");
    assert!(
        text_of(&told[0]).contains("about 3 hours"),
        "{}",
        text_of(&told[0])
    );
    let held = h.referee().overview(race).await.unwrap().deadline.unwrap();
    assert!(
        held > h.clock.now_ms(),
        "the deadline moved on by the outage"
    );
    assert_eq!(step(&h).await, first);
    h.advance((held - h.clock.now_ms()) / 1000 + 1);
    h.settle().await;
    h.advance(60);
    h.settle().await;
    assert_ne!(step(&h).await, first, "the held deadline fired");
    let told = h.fake.messages().into_iter().filter(|m| notice(m)).count();
    assert_eq!(told, 1, "told once");
}

/// A DM written while the gateway was away is read back only after its turn resolved at
/// the deadline (Discord answered REST meanwhile, so no outage held it): it was meant for
/// that turn, so it is not played on the next, and the player is told so in a sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_read_after_its_turn_resolved_is_not_played_on_the_next() {
    use crate::support::discord::*;
    let mut h = Harness::start().await;
    let alice = User::new(1801, "Alice");
    let bob = User::new(1802, "Bob");
    h.open_race("dream-mile", "turn=24h", &alice, &[&bob]).await;
    // Turn 1, live, so that the bot knows which of their DMs it has handled.
    for (who, order) in [(&alice, "4"), (&bob, "3")] {
        let n = h.fake.dms_to(who.id).len();
        h.fake.dm(who, order);
        h.fake.wait_dm(who.id, n + 1).await;
    }
    h.settle().await;
    let n = h.fake.dms_to(bob.id).len();
    h.fake.dm(&bob, "2");
    h.fake.wait_dm(bob.id, n + 1).await;
    h.settle().await;
    // The gateway goes away; Alice writes her turn-2 order; the deadline passes.
    let identifies = h.fake.identifies();
    h.fake.gateway_down();
    h.fake.dm(&alice, "6");
    h.advance(25 * 3600);
    h.settle().await;
    let turn_2 = orders_at(&h, 1).await;
    assert_eq!(
        turn_2.len(),
        2,
        "turn 2 resolved without Alice's DM: {turn_2:?}"
    );
    assert!(!turn_2.contains(&(alice.id.to_string(), "6".to_string())));
    // A fresh session (READY): the catch-up reads Alice's DM, now a turn late.
    h.fake.refuse_next_resume();
    h.fake.gateway_up();
    h.fake.wait_reconnected(usize::MAX, identifies + 1).await;
    let late = |m: &serde_json::Value| {
        let t = text_of(m);
        t.contains("before this turn began") || (t.contains("Receipt `") && t.contains("`6`"))
    };
    let n = h.fake.dms_to(alice.id).iter().filter(|m| late(m)).count();
    let answer = h
        .fake
        .wait_dm_matching(alice.id, "the answer to Alice's late DM", |m| late(m))
        .await;
    h.settle().await;
    assert_eq!(
        h.fake.dms_to(alice.id).iter().filter(|m| late(m)).count(),
        n + 1,
        "answered once"
    );
    assert_eq!(
        orders_at(&h, 2).await,
        Vec::<(String, String)>::new(),
        "Alice's turn-2 DM was played on turn 3"
    );
    assert!(
        text_of(&answer).contains("You sent that before this turn began"),
        "{}",
        text_of(&answer)
    );
    h.stop_bot().await;
}
