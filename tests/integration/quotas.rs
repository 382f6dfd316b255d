//! Quotas and limits ("Quotas and limits"): one test per item, each shown to
//! fail before its fix (docs/reliability.md, "Quotas"). The referee's quotas run on both
//! databases; what Discord sees runs through the fake Discord.

use crate::support::backend::{self, Arg, Bench, Kind};
use crate::support::courier::{actor, alice, bob, carol, dave};
use crate::support::discord::*;
use photofinish::engine::Seat;
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::{Actor, Config, Limits, NewRace, Referee, RefereeError};
use photofinish::vocab::{CampaignId, Phase, UserId};
use serde_json::{Value, json};

const DM: GameKind = GameKind::DreamMile;

/// A referee on the bench's database with these limits.
fn referee_with(b: &Bench, limits: Limits) -> Referee {
    Referee::new(
        b.store.clone(),
        b.clock.clone(),
        Config {
            default_timing: backend::timing(3600, vec![], true),
            limits,
            ..Config::default()
        },
    )
}

async fn open(
    r: &Referee,
    host: &Actor,
    channel: &str,
    guild: &str,
) -> Result<CampaignId, RefereeError> {
    r.create(NewRace {
        kind: DM,
        options: String::new(),
        channel: channel.into(),
        guild: Some(guild.into()),
        host: host.clone(),
    })
    .await
}

/// The host and two bots: enough to start.
async fn fill(r: &Referee, id: CampaignId, host: &Actor) {
    r.join(id, host, None, None).await.unwrap();
    r.add_bots(id, host, 2, photofinish::engine::BotLevel::Random)
        .await
        .unwrap();
}

/// The order in for `user`'s seat now.
async fn live(r: &Referee, id: CampaignId, user: &UserId) -> Option<String> {
    r.open_prompt(id, user).await.unwrap().current
}

/// Who holds seat 1.
async fn holder(r: &Referee, id: CampaignId) -> Option<UserId> {
    r.overview(id).await.unwrap().users[1].1.clone()
}

async fn lobbies_and_races_under_way_are_counted_per_user_and_per_server(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(
        &b,
        Limits {
            lobbies_per_user: 2,
            running_per_user: 1,
            lobbies_per_server: 3,
            running_per_server: 2,
            ..Limits::default()
        },
    );
    let (alice, bob, carol) = (alice(), bob(), carol());
    let a1 = open(&r, &alice, "c1", "g").await.unwrap();
    let a2 = open(&r, &alice, "c2", "g").await.unwrap();
    let e = open(&r, &alice, "c3", "g").await.unwrap_err();
    assert!(matches!(e, RefereeError::Quota(_)), "{e}");
    assert!(e.to_string().contains("2 lobbies open"), "{e}");
    assert!(matches!(r.race_in("c3").await, Err(RefereeError::NoRace)));
    // Bob has his own quota; the server's is the third lobby.
    let b3 = open(&r, &bob, "c3", "g").await.unwrap();
    let e = open(&r, &carol, "c4", "g").await.unwrap_err();
    assert!(
        e.to_string().contains("this server already has 3 lobbies"),
        "{e}"
    );
    // Another server counts apart.
    open(&r, &carol, "elsewhere", "g2").await.unwrap();

    // Under way: Alice may run one race at a time.
    fill(&r, a1, &alice).await;
    fill(&r, a2, &alice).await;
    r.start(a1, &alice).await.unwrap();
    let e = r.start(a2, &alice).await.unwrap_err();
    assert!(e.to_string().contains("1 races under way"), "{e}");
    assert_eq!(r.overview(a2).await.unwrap().phase, Phase::Lobby);
    r.cancel(a1, &alice).await.unwrap();
    r.start(a2, &alice).await.unwrap();
    // The server may have two under way.
    fill(&r, b3, &bob).await;
    r.start(b3, &bob).await.unwrap();
    let c4 = open(&r, &carol, "c4", "g").await.unwrap();
    fill(&r, c4, &carol).await;
    let e = r.start(c4, &carol).await.unwrap_err();
    assert!(
        e.to_string()
            .contains("this server already has 2 races under way"),
        "{e}"
    );
}

async fn reminders_are_capped_and_spaced(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(&b, Limits::default());
    let many: Vec<String> = (1..=1399).map(|i| format!("{i}m")).collect();
    let asked = |reminders: &str| NewRace {
        kind: DM,
        options: format!("turn=30d reminders={reminders}"),
        channel: "c1".into(),
        guild: Some("g".into()),
        host: alice(),
    };
    let e = r.create(asked(&many.join(","))).await.unwrap_err();
    assert!(e.to_string().contains("5 reminders at most"), "{e}");
    let e = r.create(asked("6h,5h,4h,3h,2h,1h")).await.unwrap_err();
    assert!(e.to_string().contains("5 reminders at most"), "{e}");
    let e = r.create(asked("1h,3599s")).await.unwrap_err();
    assert!(e.to_string().contains("at least 1m apart"), "{e}");
    assert!(matches!(r.race_in("c1").await, Err(RefereeError::NoRace)));
    let id = r.create(asked("12h,6h,1h,10m,1m")).await.unwrap();
    // Settings keep to the same rule.
    let e = r
        .settings(id, &alice(), "reminders=1h,2h,3h,4h,5h,6h")
        .await
        .unwrap_err();
    assert!(e.to_string().contains("5 reminders at most"), "{e}");
    assert_eq!(r.overview(id).await.unwrap().timing.reminders.len(), 5);
}

async fn order_changes_are_paced_and_a_seat_keeps_few_of_them(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(
        &b,
        Limits {
            actions_burst: 3,
            actions_per_minute: 6,
            superseded_orders_kept: 2,
            ..Limits::default()
        },
    );
    let (alice, bob) = (alice(), bob());
    let id = open(&r, &alice, "c1", "g").await.unwrap();
    r.join(id, &alice, None, None).await.unwrap();
    r.join(id, &bob, None, None).await.unwrap();
    r.start(id, &alice).await.unwrap();
    let me = alice.user.clone();
    // A first order is never held back, nor the same order again.
    r.submit(id, &me, "7").await.unwrap();
    r.submit(id, &me, "7").await.unwrap();
    for speed in ["6", "5", "4"] {
        r.submit(id, &me, speed).await.unwrap();
    }
    let e = r.submit(id, &me, "3").await.unwrap_err();
    assert!(matches!(e, RefereeError::TooFast { .. }), "{e}");
    assert!(
        e.to_string().contains("please try again in 10 seconds"),
        "{e}"
    );
    assert_eq!(
        live(&r, id, &me).await.as_deref(),
        Some("4"),
        "the refused change changed nothing"
    );
    // Six a minute: one more every ten seconds on the referee's clock.
    b.clock.advance_secs(10);
    r.submit(id, &me, "3").await.unwrap();
    assert!(r.submit(id, &me, "2").await.is_err());
    // The seat keeps its live order and the two it replaced last, however many changes.
    for speed in ["2", "1", "8", "9"] {
        b.clock.advance_secs(10);
        r.submit(id, &me, speed).await.unwrap();
    }
    let rows = b
        .count(
            "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND step = 0 AND seat = 0",
            id,
        )
        .await;
    assert_eq!(rows, 3);
    assert_eq!(live(&r, id, &me).await.as_deref(), Some("9"));
    // The turn still resolves with the live order, and the race verifies at the end.
    r.submit(id, &bob.user, "5").await.unwrap();
    let h = r.history(id, 1).await.unwrap();
    assert!(
        h.orders.iter().any(|o| o.name == "Alice" && o.order == "9"),
        "{h:?}"
    );
}

async fn preferences_are_paced_and_bounded_per_seat(kind: Kind) {
    let b = Bench::new(kind).await;
    let paced = referee_with(
        &b,
        Limits {
            actions_burst: 2,
            actions_per_minute: 6,
            ..Limits::default()
        },
    );
    let alice = alice();
    let id = paced
        .create(NewRace {
            kind: GameKind::MagicalAthlete,
            options: String::new(),
            channel: "c1".into(),
            guild: Some("g".into()),
            host: alice.clone(),
        })
        .await
        .unwrap();
    paced.join(id, &alice, None, None).await.unwrap();
    paced.set_preference(id, &alice.user, "a").await.unwrap();
    paced.set_preference(id, &alice.user, "b").await.unwrap();
    let e = paced
        .set_preference(id, &alice.user, "c")
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::TooFast { .. }), "{e}");
    // What one seat stores is bounded too.
    let capped = referee_with(
        &b,
        Limits {
            preferences_per_seat: 3,
            ..Limits::default()
        },
    );
    capped.set_preference(id, &alice.user, "c").await.unwrap();
    let e = capped
        .set_preference(id, &alice.user, "d")
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::Quota(_)), "{e}");
    let n = b
        .count("SELECT COUNT(*) FROM preferences WHERE campaign_id = ?", id)
        .await;
    assert_eq!(n, 3);
}

async fn one_change_queues_one_status_update(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(&b, Limits::default());
    let id = open(&r, &alice(), "c1", "g").await.unwrap();
    r.join(id, &alice(), None, None).await.unwrap();
    r.join(id, &bob(), None, None).await.unwrap();
    r.join(id, &carol(), None, None).await.unwrap();
    r.start(id, &alice()).await.unwrap();
    let statuses = |b: &Bench| {
        let store = b.store.clone();
        async move {
            store
                .outbox_of(id)
                .await
                .unwrap()
                .iter()
                .filter(|o| o.coalesce_key.as_deref() == Some(&format!("status:{}", id.0)))
                .count()
        }
    };
    let before = statuses(&b).await;
    r.submit(id, &alice().user, "7").await.unwrap();
    assert_eq!(statuses(&b).await, before + 1, "an order");
    r.submit(id, &alice().user, "6").await.unwrap();
    assert_eq!(statuses(&b).await, before + 2, "a change");
    r.pause(id, &alice()).await.unwrap();
    assert_eq!(statuses(&b).await, before + 3, "a pause");
}

async fn a_seat_changes_hands_only_when_the_new_player_accepts(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(&b, Limits::default());
    let (alice, bob, dave) = (alice(), bob(), dave());
    let id = open(&r, &alice, "c1", "g").await.unwrap();
    r.join(id, &alice, None, None).await.unwrap();
    r.join(id, &bob, None, None).await.unwrap();
    r.start(id, &alice).await.unwrap();
    let outbox_before = b.store.outbox_of(id).await.unwrap().len();
    assert_eq!(
        r.replace(id, &alice, "Bob", &dave.user).await.unwrap(),
        "Bob"
    );
    // The seat is still Bob's: he orders, Dave cannot.
    assert_eq!(holder(&r, id).await, Some(bob.user.clone()));
    r.submit(id, &bob.user, "5").await.unwrap();
    assert!(matches!(
        r.submit(id, &dave.user, "5").await,
        Err(RefereeError::NotSeated)
    ));
    // Dave hears of the offer once, in the channel, and nothing else reaches him.
    let new: Vec<_> = b.store.outbox_of(id).await.unwrap()[outbox_before..].to_vec();
    let offers: Vec<Announcement> = new
        .iter()
        .filter_map(|o| serde_json::from_value::<Announcement>(o.payload.clone()).ok())
        .filter(|a| matches!(a, Announcement::SeatOffer { .. }))
        .collect();
    assert_eq!(
        offers,
        vec![Announcement::SeatOffer {
            race: id,
            seat: Seat(1),
            seat_name: "Bob".into(),
            user: dave.user.clone()
        }]
    );
    for o in &new {
        let target: Target = serde_json::from_value(o.target.clone()).unwrap();
        assert!(
            !matches!(&target, Target::Dm { user, .. } if *user == dave.user),
            "a DM to Dave before he accepted: {o:?}"
        );
    }
    // Only Dave can accept, and only the seat offered.
    let mallory = actor("666", "Mallory");
    assert!(matches!(
        r.accept_seat(id, &mallory, Seat(1)).await,
        Err(RefereeError::NoOffer)
    ));
    assert!(matches!(
        r.accept_seat(id, &dave, Seat(0)).await,
        Err(RefereeError::NoOffer)
    ));
    assert_eq!(r.accept_seat(id, &dave, Seat(1)).await.unwrap(), "Bob");
    assert_eq!(holder(&r, id).await, Some(dave.user.clone()));
    assert!(matches!(
        r.submit(id, &bob.user, "4").await,
        Err(RefereeError::NotSeated)
    ));
    r.submit(id, &dave.user, "4").await.unwrap();
    // The offer is spent.
    assert!(matches!(
        r.accept_seat(id, &dave, Seat(1)).await,
        Err(RefereeError::AlreadySeated)
    ));
}

async fn history_reads_only_the_turn_asked_for(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = referee_with(&b, Limits::default());
    let (alice, bob) = (alice(), bob());
    let id = open(&r, &alice, "c1", "g").await.unwrap();
    r.join(id, &alice, None, None).await.unwrap();
    r.join(id, &bob, None, None).await.unwrap();
    r.start(id, &alice).await.unwrap();
    for _ in 0..3 {
        r.submit(id, &alice.user, "5").await.unwrap();
        r.submit(id, &bob.user, "5").await.unwrap();
    }
    // Damage turn 3's record: turn 1's history does not read it, so it still answers.
    let raw = b.db.raw().await;
    let damaged = raw
        .execute(
            "UPDATE events SET event = 'not json' WHERE campaign_id = ? AND step = 2",
            vec![Arg::I(id.0)],
        )
        .await;
    raw.close().await;
    assert!(damaged > 0);
    let h = r.history(id, 1).await.unwrap();
    assert_eq!(h.number, 1);
    assert_eq!(h.orders.len(), 2);
    assert!(
        r.history(id, 3).await.is_err(),
        "the damaged turn is reported"
    );
    assert!(matches!(
        r.history(id, 4).await,
        Err(RefereeError::NoSuchTurn)
    ));
    assert!(matches!(
        r.history(id, 0).await,
        Err(RefereeError::NoSuchTurn)
    ));
}

on_both!(
    lobbies_and_races_under_way_are_counted_per_user_and_per_server,
    reminders_are_capped_and_spaced,
    order_changes_are_paced_and_a_seat_keeps_few_of_them,
    preferences_are_paced_and_bounded_per_seat,
    one_change_queues_one_status_update,
    a_seat_changes_hands_only_when_the_new_player_accepts,
    history_reads_only_the_turn_asked_for,
);

// Through the fake Discord.

const OTHER_CHANNEL: u64 = 600_000_000_000_000_002;
const OTHER_GUILD: u64 = 800_000_000_000_000_002;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_needs_the_callers_own_permission() {
    let h = Harness::start().await;
    let mut alice = User::new(701, "Alice");
    alice.threads = false;
    let a = h
        .slash(
            &alice,
            "new",
            &[("game", json!("dream-mile")), ("thread", json!(true))],
        )
        .await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(text_of(&a).contains("Create Public Threads"), "{a}");
    assert!(
        !h.fake
            .requests()
            .iter()
            .any(|r| r.is("POST", &format!("/channels/{CHANNEL}/threads"))),
        "no thread was made"
    );
    assert!(h.referee().race_in(&CHANNEL.to_string()).await.is_err());
    // Without a thread, the same member may open the race here.
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_race_over_the_quota_is_refused_politely() {
    let h = Harness::start_with_limits(Some(Limits {
        lobbies_per_user: 1,
        commands_burst: 0,
        ..Limits::default()
    }))
    .await;
    let alice = User::new(701, "Alice");
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let id = h.fake.slash(
        &alice,
        OTHER_CHANNEL,
        "new",
        &[("game", json!("dream-mile")), ("thread", json!(true))],
    );
    let a = h.fake.response(id).await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(
        text_of(&a).contains("You already have 1 lobbies open"),
        "{a}"
    );
    assert!(
        !h.fake
            .requests()
            .iter()
            .any(|r| r.path.ends_with("/threads")),
        "no thread is made for a race that cannot open"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_paced_per_user() {
    let h = Harness::start_with_limits(Some(Limits {
        commands_burst: 2,
        commands_per_minute: 6,
        ..Limits::default()
    }))
    .await;
    let alice = User::new(701, "Alice");
    let bob = User::new(702, "Bob");
    for _ in 0..2 {
        let a = h.slash(&alice, "help", &[]).await;
        assert!(!text_of(&a).contains("faster"), "{a}");
    }
    let a = h.slash(&alice, "help", &[]).await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(
        text_of(&a).contains(
            "You're going faster than I can keep up with; please try again in 10 seconds."
        ),
        "{a}"
    );
    // Bob has his own pace; Alice's comes back on the clock.
    let a = h.slash(&bob, "help", &[]).await;
    assert!(!text_of(&a).contains("faster"), "{a}");
    h.advance(10);
    let a = h.slash(&alice, "help", &[]).await;
    assert!(!text_of(&a).contains("faster"), "{a}");
}

/// A copy of `message` as if it were in another channel.
fn moved(message: &Value, channel: u64) -> Value {
    let mut m = message.clone();
    m["channel_id"] = json!(channel.to_string());
    m
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_buttons_act_only_where_their_race_is() {
    let h = Harness::start().await;
    let alice = User::new(701, "Alice");
    let bob = User::new(702, "Bob");
    let eve = User::new(703, "Eve");
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;
    let lobby = h
        .fake
        .wait_message("the lobby", |m| {
            custom_ids(m).contains(&"pf:join:1".to_string())
        })
        .await;
    let seats = |h: &Harness| {
        let r = h.referee();
        async move { r.overview(CampaignId(1)).await.unwrap().users.len() }
    };
    // The race's buttons, pressed in another channel of the server.
    let a = h
        .click(&eve, &moved(&lobby, OTHER_CHANNEL), "pf:join:1")
        .await;
    assert!(text_of(&a).contains(NO_RACE), "{a}");
    let a = h
        .click(&bob, &moved(&lobby, OTHER_CHANNEL), "pf:leave:1")
        .await;
    assert!(text_of(&a).contains(NO_RACE), "{a}");
    assert_eq!(seats(&h).await, 2);
    // ... and in the race's channel id, but from another server.
    h.fake.guild_for(CHANNEL, OTHER_GUILD);
    let a = h.click(&eve, &lobby, "pf:join:1").await;
    assert!(text_of(&a).contains(NO_RACE), "{a}");
    let a = h.click(&bob, &lobby, "pf:leave:1").await;
    assert!(text_of(&a).contains(NO_RACE), "{a}");
    assert_eq!(seats(&h).await, 2);
    // Where the race is, they work.
    h.fake.guild_for(CHANNEL, GUILD_ID);
    let a = h.click(&eve, &lobby, "pf:join:1").await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    assert_eq!(seats(&h).await, 3);
}

const NO_RACE: &str = "There is no race here";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_offered_and_taken_with_a_button() {
    let h = Harness::start().await;
    let alice = User::new(701, "Alice");
    let bob = User::new(702, "Bob");
    let dave = User::new(704, "Dave");
    let eve = User::new(705, "Eve");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let dms_before = h.fake.dms_to(dave.id).len();
    let a = h
        .slash(
            &alice,
            "replace",
            &[
                ("seat", json!("Bob")),
                ("user", FakeDiscord::user_option(&dave)),
            ],
        )
        .await;
    assert!(
        text_of(&a).contains("stays as it is until they accept"),
        "{a}"
    );
    let offer = h
        .fake
        .wait_message("the offer", |m| {
            custom_ids(m).contains(&"pf:accept:1:1".to_string())
        })
        .await;
    assert_eq!(offer["content"], format!("<@{}>", dave.id).as_str());
    h.settle().await;
    assert_eq!(
        h.fake.dms_to(dave.id).len(),
        dms_before,
        "no DM before accepting"
    );
    let users = |h: &Harness| {
        let r = h.referee();
        async move { r.overview(CampaignId(1)).await.unwrap().users[1].1.clone() }
    };
    assert_eq!(users(&h).await, Some(UserId::new(bob.id.to_string())));
    // Someone else's click, or the button moved elsewhere, takes nothing.
    let a = h.click(&eve, &offer, "pf:accept:1:1").await;
    assert!(text_of(&a).contains("no seat waiting for you"), "{a}");
    let a = h
        .click(&dave, &moved(&offer, OTHER_CHANNEL), "pf:accept:1:1")
        .await;
    assert!(text_of(&a).contains(NO_RACE), "{a}");
    assert_eq!(users(&h).await, Some(UserId::new(bob.id.to_string())));
    let a = h.click(&dave, &offer, "pf:accept:1:1").await;
    assert!(text_of(&a).contains("You run Bob in race #1"), "{a}");
    assert_eq!(users(&h).await, Some(UserId::new(dave.id.to_string())));
    let a = h.slash(&dave, "order", &[("text", json!("4"))]).await;
    assert!(text_of(&a).contains("for **Bob**"), "{a}");
}

#[test]
fn limits_come_from_the_configuration() {
    use photofinish::config::Settings;
    let s =
        Settings::from_toml("[limits]\nlobbies_per_user = 1\nreminders_per_turn = 2\n").unwrap();
    let limits = s.referee.limits;
    assert_eq!(limits.lobbies_per_user, 1);
    assert_eq!(limits.reminders_per_turn, 2);
    assert_eq!(limits.running_per_user, Limits::default().running_per_user);
    assert_eq!(
        Settings::from_toml("").unwrap().referee.limits,
        Limits::default()
    );
    // A misspelt key is refused, and so are default reminders the limits forbid.
    assert!(Settings::from_toml("[limits]\nlobbies = 1\n").is_err());
    let e = Settings::from_toml(
        "[limits]\nreminders_per_turn = 1\n[turns]\nreminders = [\"1h\", \"2h\"]\n",
    )
    .unwrap_err();
    assert!(e.to_string().contains("1 reminders at most"), "{e}");
}

/// One cap on reminders, the configured `limits.reminders_per_turn`, with one sentence,
/// whether the reminders come from the configuration or from a race's options.
#[test]
fn reminders_have_one_cap_the_configured_one() {
    use photofinish::config::Settings;
    use photofinish::referee::timing::apply_timing_text;
    let twelve: Vec<String> = (1..=12).map(|i| format!("\"{i}h\"")).collect();
    let turns = format!(
        "[turns]\nlength = \"2d\"\nreminders = [{}]\n",
        twelve.join(",")
    );
    // Allowed when the configured limit allows it, however many that is.
    let s = Settings::from_toml(&format!(
        "[limits]\nreminders_per_turn = 20\nreminder_gap_secs = 60\n{turns}"
    ))
    .unwrap();
    assert_eq!(s.referee.default_timing.reminders.len(), 12);
    // Refused beyond the default limit (5), in the sentence a race's options get.
    let e = Settings::from_toml(&turns).unwrap_err().to_string();
    let sentence = "a turn can have 5 reminders at most; you asked for 12";
    assert!(e.contains(sentence), "{e}");
    let limits = Limits::default();
    let mut timing = Settings::default().referee.default_timing;
    let text = (1..=12)
        .map(|i| format!("{i}h"))
        .collect::<Vec<_>>()
        .join(",");
    apply_timing_text(&mut timing, &format!("turn=2d reminders={text}")).unwrap();
    let e = limits.check_timing(&timing).unwrap_err().to_string();
    assert_eq!(e, sentence);
}
