//! Time as players live it (issue 17), through the referee on each backend: players' zones
//! and quiet hours, a server's zone, `days=`, and refusals that change nothing. The
//! calendar's own cases across daylight saving are unit tests in `referee/calendar.rs`.

use crate::support::backend;

use crate::support::courier::{Recorder, alice, bob, carol};
use backend::{Bench, Kind, timing};
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::when::Zone;
use photofinish::store::{CampaignId, Millis};

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

on_both!(
    nudges_name_only_the_seats_owing_and_awake,
    quiet_hours_in_two_zones_move_the_deadline,
    weekdays_only_in_the_servers_zone,
    bad_time_settings_change_nothing,
);
