//! A rematch gives each returning player their seat back: the runner's name
//! they chose, their pre-race choice (a max speed) and their autopilot, whether they
//! pressed Rematch or Join. A newcomer gets the defaults, and a name given on joining
//! wins over the old one.

use crate::support::backend::{Bench, Kind};
use crate::support::courier::{alice, bob, carol, dave};
use photofinish::engine::Autopilot;
use photofinish::games::GameKind;
use photofinish::referee::series::Rematch;
use photofinish::store::SeatRow;
use photofinish::vocab::{CampaignId, Phase};

/// A finished Dream Mile race: Alice as "Lightning" at max speed 12, Bob as "Thunder",
/// Dave under his own name, all on autopilot `bot` (so the race plays itself).
async fn a_finished_race(b: &Bench) -> CampaignId {
    let id = b.race(GameKind::DreamMile, &alice(), "").await;
    let r = &b.referee;
    r.join(id, &alice(), Some("Lightning"), Some("12"))
        .await
        .unwrap();
    r.join(id, &bob(), Some("Thunder"), None).await.unwrap();
    r.join(id, &dave(), Some("Gale"), None).await.unwrap();
    for p in [alice(), bob(), dave()] {
        r.set_autopilot(id, &p.user, Some("bot")).await.unwrap();
    }
    r.start(id, &alice()).await.unwrap();
    let mut guard = 0;
    while r.overview(id).await.unwrap().phase != Phase::Finished {
        b.clock.advance_secs(3600);
        r.tick().await.unwrap();
        guard += 1;
        assert!(guard < 50, "the race did not finish");
    }
    id
}

fn seat<'a>(seats: &'a [SeatRow], user: &str) -> &'a SeatRow {
    seats
        .iter()
        .find(|s| s.user.as_ref().is_some_and(|u| u.0 == user))
        .unwrap_or_else(|| panic!("{user} is seated: {seats:?}"))
}

async fn each_player_gets_their_seat_back(kind: Kind) {
    let b = Bench::new(kind).await;
    let old = a_finished_race(&b).await;
    let new = match b.referee.rematch(old, &alice()).await.unwrap() {
        Rematch::Opened { race, .. } => race,
        other @ Rematch::Already(_) => panic!("{other:?}"),
    };
    // Bob presses Join; Carol, who was not in the race, too; Dave names himself anew.
    for p in [bob(), carol()] {
        b.referee.join(new, &p, None, None).await.unwrap();
    }
    b.referee
        .join(new, &dave(), Some("Breeze"), None)
        .await
        .unwrap();
    let seats = b.store.load(new).await.unwrap().unwrap().seats;
    let (a, bo, c, d) = (
        seat(&seats, &alice().user.0),
        seat(&seats, &bob().user.0),
        seat(&seats, &carol().user.0),
        seat(&seats, &dave().user.0),
    );
    assert_eq!(
        (a.name.as_str(), a.choice.as_deref(), a.autopilot),
        ("Lightning", Some("12"), Autopilot::Bot),
        "the presser"
    );
    assert_eq!(
        (bo.name.as_str(), bo.choice.as_deref(), bo.autopilot),
        ("Thunder", None, Autopilot::Bot),
        "a player who pressed Join"
    );
    assert_eq!(
        (c.name.as_str(), c.autopilot),
        ("Carol", Autopilot::Auto),
        "a newcomer"
    );
    assert_eq!(
        (d.name.as_str(), d.autopilot),
        ("Breeze", Autopilot::Bot),
        "a name given wins; the rest comes back"
    );
    // The rematch plays under those names.
    b.referee.start(new, &alice()).await.unwrap();
    let names: Vec<String> = b
        .referee
        .overview(new)
        .await
        .unwrap()
        .seats
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["Lightning", "Thunder", "Carol", "Breeze"]);
}

on_both!(each_player_gets_their_seat_back);
