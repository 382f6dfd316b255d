//! Autopilot per seat and absence in the referee, on the test clock:
//! `auto` seats are not asked forced or obvious orders, `ask` seats always are, `bot`
//! seats and away seats play at once; the DM says what was played, and the channel never
//! calls it missed. `/race away` covers every race of the player, each channel told once,
//! and `/race back` ends it.

use crate::support::backend;

use crate::support::courier::{Recorder, alice, bob};
use backend::{Bench, Kind};
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::{Actor, NewRace, RefereeError};
use photofinish::store::OrderSource;
use photofinish::vocab::{CampaignId, UserId};

const DM: GameKind = GameKind::DreamMile;
/// Two turns with orders and no automatic last turn: the second is obvious for `auto`.
const TWO_TURNS: &str = "ordered-turns=2 auto-final-turn=no";

async fn race_in(b: &Bench, kind: GameKind, channel: &str, options: &str) -> CampaignId {
    b.referee
        .create(NewRace {
            kind,
            options: options.into(),
            channel: channel.into(),
            guild: Some("guild-1".into()),
            host: alice(),
        })
        .await
        .unwrap()
}

/// Alice and Bob in a started race of `kind`.
async fn two_seats(b: &Bench, kind: GameKind, channel: &str, options: &str) -> CampaignId {
    let id = race_in(b, kind, channel, options).await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    b.referee.join(id, &bob(), None, None).await.unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    id
}

fn user(a: &Actor) -> UserId {
    a.user.clone()
}

fn dm_to(out: &[(Target, Announcement)], who: &Actor) -> Vec<Announcement> {
    out.iter()
        .filter(|(t, _)| matches!(t, Target::Dm { user, .. } if *user == who.user))
        .map(|(_, a)| a.clone())
        .collect()
}

fn prompted(out: &[(Target, Announcement)], who: &Actor) -> bool {
    dm_to(out, who)
        .iter()
        .any(|a| matches!(a, Announcement::Prompt { .. }))
}

/// Every private note sent to `who`.
fn notes_to(out: &[(Target, Announcement)], who: &Actor) -> Vec<String> {
    dm_to(out, who)
        .into_iter()
        .flat_map(|a| match a {
            Announcement::Prompt { notes, .. } | Announcement::ViewUpdate { notes, .. } => notes,
            _ => Vec::new(),
        })
        .collect()
}

/// The channel's notices.
fn notices(out: &[(Target, Announcement)]) -> Vec<String> {
    out.iter()
        .filter_map(|(t, a)| match (t, a) {
            (Target::Channel, Announcement::Notice { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The channel's turn posts: (missed orders, revealed orders with their source).
fn turn_posts(out: &[(Target, Announcement)]) -> Vec<(usize, Vec<(String, OrderSource)>)> {
    out.iter()
        .filter_map(|(_, a)| match a {
            Announcement::TurnResolved {
                missed, revealed, ..
            } => Some((
                missed.len(),
                revealed
                    .iter()
                    .map(|r| (r.name.clone(), r.source))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

async fn delivered(b: &Bench, rec: &Recorder) -> Vec<(Target, Announcement)> {
    b.referee.deliver(rec).await.unwrap();
    rec.take()
}

async fn auto_seats_are_not_asked_the_obvious_last_turn(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = two_seats(&b, DM, "c-auto", TWO_TURNS).await;
    let out = delivered(&b, &rec).await;
    // Turn 1 matters: both auto seats are asked.
    assert!(prompted(&out, &alice()) && prompted(&out, &bob()));
    b.referee.submit(id, &user(&alice()), "9").await.unwrap();
    let r = b.referee.submit(id, &user(&bob()), "8").await.unwrap();
    assert!(r.resolved);
    // Turn 2 is the last: playing everything left is obvious, so nobody is asked and the
    // race ends at once.
    let out = delivered(&b, &rec).await;
    assert!(!prompted(&out, &alice()) && !prompted(&out, &bob()));
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.phase, photofinish::vocab::Phase::Finished);
    for who in [alice(), bob()] {
        let notes = notes_to(&out, &who);
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("Played for you (Turn 2 of 2): 10 (the obvious choice)")),
            "{}: {notes:?}",
            who.name
        );
    }
    let posts = turn_posts(&out);
    let last = posts.last().unwrap();
    assert_eq!(last.0, 0, "nothing is missed");
    // A chain of turns is told one post a turn: turn 1 with its two player orders, then
    // turn 2 with the two played for them.
    let sources = |p: &(usize, Vec<(String, OrderSource)>)| -> Vec<OrderSource> {
        p.1.iter().map(|(_, s)| *s).collect()
    };
    assert_eq!(sources(last), vec![OrderSource::Auto, OrderSource::Auto]);
    let before = &posts[posts.len() - 2];
    assert_eq!(
        sources(before),
        vec![OrderSource::Player, OrderSource::Player]
    );
    let verified = b.referee.verify(id).await.unwrap();
    assert!(verified.ok(), "{verified:?}");
}

async fn ask_seats_are_always_asked(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = two_seats(&b, DM, "c-ask", TWO_TURNS).await;
    let set = b
        .referee
        .set_autopilot(id, &user(&bob()), Some("ask"))
        .await
        .unwrap();
    assert_eq!(set.name(), "ask");
    delivered(&b, &rec).await;
    b.referee.submit(id, &user(&alice()), "9").await.unwrap();
    b.referee.submit(id, &user(&bob()), "8").await.unwrap();
    let out = delivered(&b, &rec).await;
    // Alice's last turn is played for her; Bob, on `ask`, is asked it.
    assert!(!prompted(&out, &alice()));
    assert!(prompted(&out, &bob()));
    assert!(
        notes_to(&out, &alice())
            .iter()
            .any(|n| n.contains("Played for you"))
    );
    assert!(
        !notes_to(&out, &bob())
            .iter()
            .any(|n| n.contains("Played for you"))
    );
    let r = b.referee.submit(id, &user(&bob()), "5").await.unwrap();
    assert!(r.resolved);
    let out = delivered(&b, &rec).await;
    let posts = turn_posts(&out);
    let last = posts.last().unwrap();
    assert_eq!(last.0, 0);
    assert!(last.1.contains(&("Alice".into(), OrderSource::Auto)));
    assert!(last.1.contains(&("Bob".into(), OrderSource::Player)));
    // Nonsense is refused in one sentence.
    let e = b
        .referee
        .set_autopilot(id, &user(&bob()), Some("sometimes"))
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::Invalid(_)), "{e}");
}

async fn a_bot_seat_plays_at_once_and_is_told(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = two_seats(&b, DM, "c-bot", "").await;
    delivered(&b, &rec).await;
    // Alice owes turn 1; switching to `bot` plays it at once.
    b.referee
        .set_autopilot(id, &user(&alice()), Some("bot"))
        .await
        .unwrap();
    let out = delivered(&b, &rec).await;
    let notes = notes_to(&out, &alice());
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Played for you (Turn 1 of 8)") && n.contains("`bot`")),
        "{notes:?}"
    );
    let r = b.referee.submit(id, &user(&bob()), "6").await.unwrap();
    assert!(
        r.resolved,
        "the bot's order is in: Bob's completes the turn"
    );
    let out = delivered(&b, &rec).await;
    // The next turn: Alice's bot plays at once again, she is not asked; Bob is.
    assert!(!prompted(&out, &alice()));
    assert!(prompted(&out, &bob()));
    let posts = turn_posts(&out);
    assert_eq!(posts[0].0, 0, "the bot's order is not a missed one");
    assert!(posts[0].1.contains(&("Alice".into(), OrderSource::Auto)));
}

async fn one_absence_covers_two_races_of_different_games(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let dream = two_seats(&b, DM, "c-dream", "").await;
    let miles = two_seats(&b, GameKind::MilleBornes, "c-miles", "").await;
    // Bob is asked every step: on `auto` (the default), a deal whose plays are all forced
    // or obvious for him can play the whole race out while Alice is away.
    for id in [dream, miles] {
        for who in [alice(), bob()] {
            b.referee
                .set_autopilot(id, &user(&who), Some("ask"))
                .await
                .unwrap();
        }
    }
    delivered(&b, &rec).await;
    let report = b.referee.away(&alice(), None, Some(5)).await.unwrap();
    assert_eq!(report.races, vec![dream, miles]);
    let out = delivered(&b, &rec).await;
    let told = notices(&out);
    assert_eq!(
        told.iter()
            .filter(|n| n.contains("Alice is away until"))
            .count(),
        2,
        "{told:?}"
    );
    assert!(
        told.iter().all(|n| !n.contains("away until")
            || n.contains("Tue 6 Jan 00:00 (UTC); their runner is on autopilot.")),
        "{told:?}"
    );
    // Both seats play without asking, step after step, and no channel is told again.
    let mut asked_alice = false;
    let mut told_again = 0;
    for _ in 0..4 {
        // Within the order rate limit.
        b.clock.advance_secs(60);
        for id in [dream, miles] {
            let Ok(p) = b.referee.open_prompt(id, &user(&bob())).await else {
                continue;
            };
            if let Some(c) = p.prompt.choices.first() {
                let _ = b.referee.submit(id, &user(&bob()), &c.order).await;
            }
        }
        let out = delivered(&b, &rec).await;
        asked_alice |= prompted(&out, &alice());
        told_again += notices(&out).iter().filter(|n| n.contains("away")).count();
    }
    assert!(!asked_alice, "an away seat is never asked");
    assert_eq!(told_again, 0);
    let orders: i64 = b
        .count(
            "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND seat = 0 AND source = 'auto'",
            miles,
        )
        .await;
    assert!(orders > 0, "Alice's card plays were made for her");
    let orders: i64 = b
        .count(
            "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND seat = 0 AND source = 'auto'",
            dream,
        )
        .await;
    assert!(orders > 0, "Alice's speeds were played for her");
    // Back: the next step asks her again.
    let back = b.referee.back(&alice()).await.unwrap();
    assert_eq!(back, vec![dream, miles]);
    let out = delivered(&b, &rec).await;
    assert_eq!(
        notices(&out)
            .iter()
            .filter(|n| n.contains("Alice is back"))
            .count(),
        2
    );
    let r = b.referee.submit(dream, &user(&bob()), "1").await.unwrap();
    assert!(r.resolved, "Alice's order for this step was in already");
    let out = delivered(&b, &rec).await;
    assert!(
        prompted(&out, &alice()),
        "back: the next step prompts again"
    );
    assert!(matches!(
        b.referee.back(&alice()).await,
        Err(RefereeError::Invalid(_))
    ));
}

async fn bad_absences_are_refused_and_change_nothing(kind: Kind) {
    let b = Bench::new(kind).await;
    let capped = two_seats(&b, DM, "c-cap", "away-cap=7").await;
    let version = b
        .store
        .load(capped)
        .await
        .unwrap()
        .unwrap()
        .campaign
        .version;
    for (until, days) in [
        (Some("yesterday 10:00"), None),
        (Some("soon-ish"), None),
        (None, Some(0)),
        (None, Some(400)),
        (None, Some(8)),
        (None, None),
        (Some("in 2h"), Some(2)),
    ] {
        let e = b.referee.away(&alice(), until, days).await.unwrap_err();
        let RefereeError::Invalid(text) = &e else {
            panic!("{e:?}")
        };
        assert!(!text.is_empty() && !text.contains('\n'), "{text}");
    }
    assert_eq!(
        b.store
            .load(capped)
            .await
            .unwrap()
            .unwrap()
            .campaign
            .version,
        version,
        "nothing changed"
    );
    // Absences that add up past the cap: accepted, and the host is told once.
    b.clock.advance_secs(60);
    let rec = Recorder::default();
    delivered(&b, &rec).await;
    b.referee.away(&alice(), None, Some(5)).await.unwrap();
    b.clock.advance_secs(5 * 86_400);
    b.referee.away(&alice(), None, Some(3)).await.unwrap();
    b.referee.away(&alice(), None, Some(4)).await.unwrap();
    let out = delivered(&b, &rec).await;
    let host = notices(&out)
        .into_iter()
        .filter(|n| n.contains("away-cap=7") && n.contains("/race replace"))
        .count();
    assert_eq!(host, 1, "the host is told once");
}

on_both!(
    auto_seats_are_not_asked_the_obvious_last_turn,
    ask_seats_are_always_asked,
    a_bot_seat_plays_at_once_and_is_told,
    one_absence_covers_two_races_of_different_games,
    bad_absences_are_refused_and_change_nothing,
);
