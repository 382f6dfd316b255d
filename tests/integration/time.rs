//! Time as players live it, through the referee on each backend: players' zones
//! and quiet hours, a server's zone, `days=`, clocks (`clock=`, a bank per seat) across
//! the changes of clocks, and refusals that change nothing. The
//! calendar's own cases across daylight saving are unit tests in `referee/calendar.rs`.

use crate::support::backend;

use crate::support::courier::{Recorder, alice, bob, carol};
use backend::{Bench, Kind, timing};
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::when::Zone;
use photofinish::vocab::{CampaignId, Millis};

fn ms(rfc3339: &str) -> Millis {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .unwrap()
        .timestamp_millis()
}

/// A started Dream Mile race of Alice (host), Bob and Carol with `options`.
async fn race(b: &Bench, options: &str) -> CampaignId {
    let id = b.race(GameKind::DreamMile, &alice(), options).await;
    for p in [alice(), bob(), carol()] {
        b.referee.join(id, &p, None, None).await.unwrap();
    }
    b.referee.start(id, &alice()).await.unwrap();
    id
}

async fn quiet_hours_in_two_zones_move_the_deadline(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![], false)).await;
    b.clock.set(ms("2026-03-28T00:30:00Z"));
    let r = &b.referee;
    r.set_my_time(&alice().user, Some("Europe/London"), Some("23:00-07:00"))
        .await
        .unwrap();
    let bob_time = r
        .set_my_time(&bob().user, Some("america/new_york"), Some("22:00-06:00"))
        .await
        .unwrap();
    assert_eq!(bob_time.zone.unwrap().to_string(), "America/New_York");
    let id = race(&b, "zone=Europe/London").await;
    // The day's turn ends at 00:30 GMT on 29 Mar, in Alice's night; it ends at 07:00 BST
    // (London went to summer time that night), 02:00 in New York: Bob's night, to 06:00 EDT.
    let o = r.overview(id).await.unwrap();
    assert_eq!(o.deadline, Some(ms("2026-03-29T10:00:00Z")));
    assert_eq!(o.timing.calendar.zone.as_deref(), Some("Europe/London"));

    // The same with a cap of 6 hours: the race waits no longer.
    let b2 = Bench::with_timing(kind, timing(86_400, vec![], false)).await;
    b2.clock.set(ms("2026-03-28T00:30:00Z"));
    for (p, z, q) in [
        (alice(), "Europe/London", "23:00-07:00"),
        (bob(), "America/New_York", "22:00-06:00"),
    ] {
        b2.referee
            .set_my_time(&p.user, Some(z), Some(q))
            .await
            .unwrap();
    }
    let id2 = race(&b2, "zone=Europe/London quiet-cap=6h").await;
    let o2 = b2.referee.overview(id2).await.unwrap();
    assert_eq!(o2.deadline, Some(ms("2026-03-29T06:30:00Z")));
}

async fn weekdays_only_in_the_servers_zone(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![], false)).await;
    // Friday 6 Mar 2026, 18:00 in New York (EST).
    b.clock.set(ms("2026-03-06T18:00:00-05:00"));
    let z = b
        .referee
        .set_server_zone("guild-1", "America/New_York")
        .await
        .unwrap();
    assert_eq!(z.to_string(), "America/New_York");
    let id = race(&b, "days=mon-fri").await;
    // Saturday is skipped, and Sunday (clocks go forward): Monday 18:00, now EDT.
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.deadline, Some(ms("2026-03-09T18:00:00-04:00")));
}

async fn bad_time_settings_change_nothing(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = &b.referee;
    let me = alice().user;
    r.set_my_time(&me, Some("Europe/Paris"), Some("22:00-06:00"))
        .await
        .unwrap();
    for (zone, quiet) in [
        (Some("Mars/Olympus"), Some("23:00-07:00")),
        (None, Some("07:00-07:00")),
        (None, Some("07:00-23:00")),
        (None, Some("late")),
        (Some("+15:00"), None),
    ] {
        let err = r
            .set_my_time(&me, zone, quiet)
            .await
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\n') && err.len() < 200, "{err}");
        assert!(
            err.contains("such as") || err.contains("write"),
            "an example: {err}"
        );
    }
    let now = r.set_my_time(&me, None, None).await.unwrap();
    assert_eq!(now.zone.unwrap().to_string(), "Europe/Paris");
    assert_eq!(now.quiet.unwrap().to_string(), "22:00-06:00");
    assert!(r.set_server_zone("guild-1", "Nowhere").await.is_err());
    assert_eq!(r.server_zone("guild-1").await.unwrap(), None);

    let id = b.race(GameKind::DreamMile, &alice(), "").await;
    let before = r.overview(id).await.unwrap().timing;
    for text in [
        "days=funday",
        "zone=Mars",
        "nudge=soon",
        "quiet-cap=30d",
        "turn=2y",
    ] {
        let err = r
            .settings(id, &alice(), text)
            .await
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\n'), "{err}");
    }
    assert_eq!(r.overview(id).await.unwrap().timing, before);
}

async fn nudges_name_only_the_seats_owing_and_awake(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![7 * 3600], false)).await;
    let rec = Recorder::default();
    b.clock.set(ms("2026-01-01T00:00:00Z"));
    // Bob sleeps in the evening (UTC), when the reminder and the nudge come.
    b.referee
        .set_my_time(&bob().user, Some("UTC"), Some("17:00-20:00"))
        .await
        .unwrap();
    let id = race(&b, "nudge=6h").await;
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms("2026-01-02T00:00:00Z"))
    );
    b.referee.submit(id, &alice().user, "6").await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    rec.take();
    b.clock.set(ms("2026-01-01T17:00:00Z"));
    assert_eq!(b.referee.tick().await.unwrap(), 1, "the reminder");
    b.clock.set(ms("2026-01-01T18:00:00Z"));
    assert_eq!(b.referee.tick().await.unwrap(), 1, "the nudge");
    assert_eq!(b.referee.tick().await.unwrap(), 0, "once per step");
    b.referee.deliver(&rec).await.unwrap();
    let sent = rec.take();
    let reminded: Vec<String> = sent
        .iter()
        .filter_map(|(t, a)| match (t, a) {
            (Target::Dm { user, .. }, Announcement::Reminder { .. }) => Some(user.0.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reminded, vec![carol().user.0], "Bob is in his quiet hours");
    let nudges: Vec<&Announcement> = sent
        .iter()
        .filter(|(t, a)| *t == Target::Channel && matches!(a, Announcement::Nudge { .. }))
        .map(|(_, a)| a)
        .collect();
    assert_eq!(nudges.len(), 1);
    let Announcement::Nudge {
        seats, deadline, ..
    } = nudges[0]
    else {
        unreachable!()
    };
    assert_eq!(*deadline, ms("2026-01-02T00:00:00Z"));
    let named: Vec<(&str, &str)> = seats
        .iter()
        .map(|s| (s.name.as_str(), s.user.0.as_str()))
        .collect();
    assert_eq!(named, vec![("Carol", "300")]);
    // On Discord it pings exactly those players.
    let layout = photofinish::discord::layout::announcement(nudges[0], Zone::UTC);
    assert_eq!(layout.ping.as_deref(), Some("300"));
    assert_eq!(layout.content.as_deref(), Some("<@300>"));
    let allowed = serde_json::to_value(photofinish::discord::dress::mentions(&layout)).unwrap();
    assert_eq!(allowed["users"], serde_json::json!(["300"]));
    assert_eq!(allowed["parse"], serde_json::json!([]));
}

const H: i64 = 3_600_000;

/// Each seat's bank in the race at a glance: (name, left, when it runs out, ran out).
async fn banks(b: &Bench, id: CampaignId) -> Vec<(String, i64, Option<Millis>, bool)> {
    let o = b.referee.overview(id).await.unwrap();
    o.seats
        .iter()
        .map(|s| {
            let bank = s.bank.expect("a bank");
            (s.name.clone(), bank.left_ms, bank.due, bank.ran_out)
        })
        .collect()
}

fn bank(
    name: &str,
    left_h: i64,
    due: Option<&str>,
    out: bool,
) -> (String, i64, Option<Millis>, bool) {
    (name.to_string(), left_h * H, due.map(ms), out)
}

/// London goes to summer time on Sunday 29 Mar 2026. A bank is elapsed time: three days
/// from 18:00 GMT on the Friday end at 19:00 BST on the Monday (72 hours). A seat that
/// never answers is played each time its bank runs out, and the others wait for no one.
async fn clocks_across_londons_spring_forward(kind: Kind) {
    // resolve=deadline: a clock step still resolves once every order is in.
    let b = Bench::with_timing(kind, timing(86_400, vec![3600], false)).await;
    let rec = Recorder::default();
    b.clock.set(ms("2026-03-27T18:00:00Z"));
    let id = race(&b, "zone=Europe/London clock=3d+12h clock-cap=4d").await;
    let due = "2026-03-30T19:00:00+01:00";
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms(due))
    );
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 72, Some(due), false),
            bank("Bob", 72, Some(due), false),
            bank("Carol", 72, Some(due), false),
        ]
    );
    b.clock.set(ms("2026-03-28T04:00:00Z"));
    b.referee.submit(id, &alice().user, "6").await.unwrap();
    b.clock.set(ms("2026-03-28T18:00:00Z"));
    b.referee.submit(id, &bob().user, "5").await.unwrap();
    // Alice's bank stopped at her order; Carol's runs.
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 62, None, false),
            bank("Bob", 48, None, false),
            bank("Carol", 48, Some(due), false),
        ]
    );
    b.referee.deliver(&rec).await.unwrap();
    rec.take();
    // No reminder with a clock: each seat's time differs.
    b.clock.set(ms("2026-03-30T17:00:00Z"));
    assert_eq!(b.referee.tick().await.unwrap(), 0);
    b.clock.set(ms(due));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    b.referee.deliver(&rec).await.unwrap();
    let sent = rec.take();
    let missed: Vec<String> = sent
        .iter()
        .filter_map(|(_, a)| match a {
            Announcement::TurnResolved { missed, .. } => {
                Some(missed.iter().map(|m| m.name.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(missed, vec!["Carol".to_string()]);
    // Step 2, opened at 18:00Z: Alice 72-10+12, Bob 72-24+12, Carol the increment.
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 74, Some("2026-04-02T20:00:00Z"), false),
            bank("Bob", 60, Some("2026-04-02T06:00:00Z"), false),
            bank("Carol", 12, Some("2026-03-31T06:00:00Z"), false),
        ]
    );
    // Each DM prompt carries its own seat's bank end.
    let prompts: Vec<(String, Option<Millis>)> = sent
        .iter()
        .filter_map(|(_, a)| match a {
            Announcement::Prompt {
                seat_name,
                deadline,
                ..
            } => Some((seat_name.clone(), *deadline)),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        vec![
            ("Alice".into(), Some(ms("2026-04-02T20:00:00Z"))),
            ("Bob".into(), Some(ms("2026-04-02T06:00:00Z"))),
            ("Carol".into(), Some(ms("2026-03-31T06:00:00Z"))),
        ]
    );
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(
        o.deadline,
        Some(ms("2026-03-31T06:00:00Z")),
        "the first bank to end"
    );
    // Carol's bank runs out again; the others' still run, and her order is refused.
    b.clock.set(ms("2026-03-31T06:00:00Z"));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    let step = b.referee.overview(id).await.unwrap().label;
    assert_eq!(step, o.label, "the step is still open");
    let err = b
        .referee
        .submit(id, &carol().user, "4")
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "your bank ran out in this step, so your default order plays; your bank is 12h for the next step"
    );
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms("2026-04-02T06:00:00Z")),
        "now Bob's"
    );
    b.clock.set(ms("2026-04-01T18:00:00Z"));
    b.referee.submit(id, &bob().user, "5").await.unwrap();
    b.referee.submit(id, &alice().user, "5").await.unwrap();
    // Resolved at once, 48 hours in: Alice 74-48+12, Bob 60-48+12, Carol her refill.
    let o = b.referee.overview(id).await.unwrap();
    assert_ne!(o.label, step);
    let left: Vec<i64> = banks(&b, id).await.iter().map(|x| x.1).collect();
    assert_eq!(left, vec![38 * H, 24 * H, 12 * H]);
}

/// New York leaves summer time on Sunday 1 Nov 2026, with `days=mon-fri`: a day's bank
/// from Friday 18:00 EDT would end on Saturday, so it ends on Monday 18:00 EST. A seat
/// that orders in the extra time is charged its bank, never more.
async fn clocks_on_weekdays_across_new_yorks_fall_back(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![], true)).await;
    b.clock.set(ms("2026-10-30T18:00:00-04:00"));
    let id = race(
        &b,
        "zone=America/New_York days=mon-fri clock=1d+6h clock-cap=2d nudge=1h",
    )
    .await;
    let due = "2026-11-02T18:00:00-05:00";
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms(due))
    );
    b.clock.set(ms("2026-10-30T20:00:00-04:00"));
    b.referee.submit(id, &bob().user, "5").await.unwrap();
    b.clock.set(ms("2026-11-01T12:00:00-05:00"));
    b.referee.submit(id, &alice().user, "5").await.unwrap();
    // The nudge, an hour before Carol's bank ends, names only her.
    let rec = Recorder::default();
    b.referee.deliver(&rec).await.unwrap();
    rec.take();
    b.clock.set(ms("2026-11-02T17:00:00-05:00"));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    b.referee.deliver(&rec).await.unwrap();
    let nudged: Vec<String> = rec
        .take()
        .into_iter()
        .filter_map(|(_, a)| match a {
            Announcement::Nudge { seats, .. } => {
                Some(seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(nudged, vec!["Carol".to_string()]);
    b.clock.set(ms(due));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    // Alice ordered on the Sunday, past her day: charged the day, then 6h. Bob used 2h.
    // Carol ran out. Step 2 opens Monday 18:00 EST; Carol's 6h end at 00:00 Tuesday.
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 6, Some("2026-11-03T00:00:00-05:00"), false),
            bank("Bob", 28, Some("2026-11-03T22:00:00-05:00"), false),
            bank("Carol", 6, Some("2026-11-03T00:00:00-05:00"), false),
        ]
    );
}

/// Sydney leaves summer time on Sunday 5 Apr 2026. Carol sleeps 23:00-07:00 there: her
/// bank's end at 01:30 AEDT moves to 07:00 AEST, and her order at 06:00 is hers, charged
/// the day she had, not the quiet hours the rule gave her.
async fn clocks_with_quiet_hours_across_sydneys_fall_back(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![], true)).await;
    b.clock.set(ms("2026-04-04T01:30:00+11:00"));
    b.referee
        .set_my_time(&carol().user, Some("Australia/Sydney"), Some("23:00-07:00"))
        .await
        .unwrap();
    let id = race(&b, "zone=Australia/Sydney clock=1d+2h").await;
    let plain = "2026-04-05T01:30:00+11:00";
    let carols = "2026-04-05T07:00:00+10:00";
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 24, Some(plain), false),
            bank("Bob", 24, Some(plain), false),
            bank("Carol", 24, Some(carols), false),
        ]
    );
    b.referee.submit(id, &alice().user, "5").await.unwrap();
    b.referee.submit(id, &bob().user, "5").await.unwrap();
    // The step's deadline follows the bank still running.
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms(carols))
    );
    b.clock.set(ms("2026-04-05T06:00:00+10:00"));
    assert_eq!(
        b.referee.tick().await.unwrap(),
        0,
        "Carol's bank still runs"
    );
    b.referee.submit(id, &carol().user, "4").await.unwrap();
    let o = b.referee.overview(id).await.unwrap();
    assert!(o.label.contains('2'), "step 2 is open: {}", o.label);
    let left: Vec<i64> = banks(&b, id).await.iter().map(|x| x.1).collect();
    // Alice and Bob ordered at once: 24h, capped at the bank. Carol: 0 + 2h.
    assert_eq!(left, vec![24 * H, 24 * H, 2 * H]);
}

/// `/race pause` stops every bank and `/race resume` restarts them with what they had;
/// `/race deadline extend:` moves every running bank's end, uncharged.
async fn a_pause_stops_the_banks(kind: Kind) {
    use photofinish::referee::DeadlineChange;
    let b = Bench::with_timing(kind, timing(86_400, vec![], true)).await;
    b.clock.set(ms("2026-01-05T00:00:00Z"));
    let id = race(&b, "clock=10h+1h").await;
    b.clock.set(ms("2026-01-05T04:00:00Z"));
    b.referee.submit(id, &alice().user, "5").await.unwrap();
    b.clock.set(ms("2026-01-05T06:00:00Z"));
    b.referee.pause(id, &alice()).await.unwrap();
    b.clock.set(ms("2026-01-06T06:00:00Z"));
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 6, None, false),
            bank("Bob", 4, None, false),
            bank("Carol", 4, None, false),
        ],
        "stopped at the pause"
    );
    b.referee.resume(id, &alice()).await.unwrap();
    let back = "2026-01-06T10:00:00Z";
    assert_eq!(
        banks(&b, id).await,
        vec![
            bank("Alice", 6, None, false),
            bank("Bob", 4, Some(back), false),
            bank("Carol", 4, Some(back), false),
        ]
    );
    b.clock.set(ms("2026-01-06T07:00:00Z"));
    b.referee
        .move_deadline(id, &alice(), DeadlineChange::Extend(2 * 3600))
        .await
        .unwrap();
    let later = "2026-01-06T12:00:00Z";
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(ms(later))
    );
    // Bob orders at 11:00: 11 hours since the opening, less the day paused, of which
    // the 2 hours given are not charged: 9h.
    b.clock.set(ms("2026-01-06T11:00:00Z"));
    b.referee.submit(id, &bob().user, "5").await.unwrap();
    b.clock.set(ms(later));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    let left: Vec<i64> = banks(&b, id).await.iter().map(|x| x.1).collect();
    // Alice 10-4+1; Bob 10-9+1; Carol ran out: 1.
    assert_eq!(left, vec![7 * H, 2 * H, H]);
}

/// A player who leaves mid-step hands their seat to the bot: its bank is not waited for,
/// and the step ends with the last human bank.
async fn a_seat_handed_to_the_bot_is_not_waited_for(kind: Kind) {
    let b = Bench::with_timing(kind, timing(86_400, vec![], true)).await;
    b.clock.set(ms("2026-01-05T00:00:00Z"));
    let id = race(&b, "clock=1h+30m").await;
    b.referee.submit(id, &alice().user, "5").await.unwrap();
    b.referee.leave(id, &carol()).await.unwrap();
    let label = b.referee.overview(id).await.unwrap().label;
    b.clock.set(ms("2026-01-05T01:00:00Z"));
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    assert_eq!(b.referee.tick().await.unwrap(), 0, "nothing left to fire");
    let o = b.referee.overview(id).await.unwrap();
    assert_ne!(o.label, label, "the step resolved when Bob's bank ran out");
    // Bob's refill of 30m is the next bank to end.
    assert_eq!(o.deadline, Some(ms("2026-01-05T01:30:00Z")));
}

async fn bad_clocks_change_nothing(kind: Kind) {
    let b = Bench::new(kind).await;
    let r = &b.referee;
    let id = b.race(GameKind::DreamMile, &alice(), "").await;
    let before = r.overview(id).await.unwrap().timing;
    for (text, says) in [
        ("clock=0", "at least 10 seconds"),
        ("clock=soon", "is not a clock"),
        ("clock=400d", "more than a year"),
        ("clock=3d+400d", "more than a year"),
        ("clock=3d clock-cap=2d", "the cap must be at least the bank"),
    ] {
        let err = r
            .settings(id, &alice(), text)
            .await
            .unwrap_err()
            .to_string();
        assert!(!err.contains('\n') && err.contains(says), "{text}: {err}");
    }
    assert_eq!(r.overview(id).await.unwrap().timing, before);
    assert!(
        r.overview(id)
            .await
            .unwrap()
            .seats
            .iter()
            .all(|s| s.bank.is_none())
    );
}

on_both!(
    clocks_across_londons_spring_forward,
    clocks_on_weekdays_across_new_yorks_fall_back,
    clocks_with_quiet_hours_across_sydneys_fall_back,
    bad_clocks_change_nothing,
    a_pause_stops_the_banks,
    a_seat_handed_to_the_bot_is_not_waited_for,
    nudges_name_only_the_seats_owing_and_awake,
    quiet_hours_in_two_zones_move_the_deadline,
    weekdays_only_in_the_servers_zone,
    bad_time_settings_change_nothing,
);
