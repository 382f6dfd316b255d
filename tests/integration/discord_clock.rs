//! End to end through the fake Discord (issue 17): a Dream Mile race with `clock=` (a
//! bank per seat), one player with quiet hours, and `nudge=`. Every DM and channel
//! message the bot sent is asserted with the test clock's time it was sent at, and the
//! nudge mentions exactly the seats still owing an order.

use crate::support::discord::*;
use serde_json::json;

fn players() -> Vec<User> {
    ["Alice", "Bob", "Carol"]
        .iter()
        .enumerate()
        .map(|(i, n)| User::new(101 + i as u64, n))
        .collect()
}

/// The messages the bot posted (channel and DMs), read in order, each stamped with the
/// test clock's time when the bot was last settled.
struct Timeline {
    seen: usize,
    names: Vec<(String, String)>,
}

impl Timeline {
    fn new(h: &Harness, p: &[User]) -> Timeline {
        let names = p
            .iter()
            .map(|u| (h.fake.open_dm(u.id).to_string(), format!("DM {}", u.name)))
            .collect();
        Timeline { seen: 0, names }
    }

    /// New posts since the last call, sorted: `HH:MM to: the title, or the content's first
    /// line`.
    async fn take(&mut self, h: &Harness) -> Vec<String> {
        h.settle().await;
        let at = chrono::DateTime::from_timestamp_millis(h.clock.now_ms()).unwrap();
        let requests = h.fake.requests();
        let mut new: Vec<String> = requests[self.seen..]
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/messages") && r.status < 300)
            .map(|r| {
                let channel = r.path.split('/').nth(2).unwrap_or("").to_string();
                let to = if channel == CHANNEL.to_string() {
                    "channel".to_string()
                } else {
                    self.names
                        .iter()
                        .find(|(c, _)| *c == channel)
                        .map(|(_, n)| n.clone())
                        .unwrap_or(channel)
                };
                let title = r.body["embeds"][0]["title"].as_str().unwrap_or("");
                let first = if title.is_empty() {
                    r.body["content"]
                        .as_str()
                        .unwrap_or("")
                        .lines()
                        .next()
                        .unwrap_or("")
                } else {
                    title
                };
                format!("{} {to}: {first}", at.format("%H:%M"))
            })
            .collect();
        self.seen = requests.len();
        // Channel posts and DMs go out on separate lanes: their order within one moment
        // is not fixed.
        new.sort();
        new
    }
}

fn latest_status(h: &Harness) -> String {
    let m = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .rfind(|m| text_of(m).contains("Deadline") || text_of(m).contains("bank"))
        .unwrap();
    text_of(&m)
}

/// The race runs from 00:00 UTC on Thursday 1 Jan 2026 (the harness's clock). Banks of
/// 2 hours, 30 minutes more per move; Bob sleeps 02:00-06:00 in London (UTC in winter).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dream_mile_race_on_clocks_with_quiet_hours_and_a_nudge() {
    let h = Harness::start().await;
    let p = players();
    let (alice, bob, carol) = (&p[0], &p[1], &p[2]);
    let mut t = Timeline::new(&h, &p);
    let a = h
        .slash(
            bob,
            "me",
            &[
                ("timezone", json!("Europe/London")),
                ("quiet", json!("02:00-06:00")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("02:00-06:00"), "{a}");
    // The away player (`/race away`, another helper's work) joins here when it lands:
    // their seat plays on autopilot and the channel is told once.
    h.open_race("dream-mile", "clock=2h+30m nudge=30m", alice, &[bob, carol])
        .await;
    let opened = t.take(&h).await;
    assert_eq!(
        opened,
        [
            "00:00 DM Alice: Dream Mile race #1: Turn 1 of 8, Alice to order",
            "00:00 DM Alice: You're in the race",
            "00:00 DM Bob: Dream Mile race #1: Turn 1 of 8, Bob to order",
            "00:00 DM Bob: You're in the race",
            "00:00 DM Carol: Dream Mile race #1: Turn 1 of 8, Carol to order",
            "00:00 DM Carol: You're in the race",
            "00:00 channel: Dream Mile race #1 is off!",
            "00:00 channel: Dream Mile race #1: Turn 1 of 8",
            "00:00 channel: Dream Mile race #1: lobby",
        ],
        "{opened:#?}"
    );
    let alice_prompt = h.fake.wait_dm(alice.id, 2).await;
    let bob_prompt = h.fake.wait_dm(bob.id, 2).await;
    // Each prompt names its own bank's end: Bob's 02:00 falls in his quiet hours: 06:00.
    assert!(
        text_of(&alice_prompt).contains("<t:1767232800:F>"),
        "{alice_prompt}"
    );
    assert!(
        text_of(&bob_prompt).contains("<t:1767247200:F>"),
        "{bob_prompt}"
    );
    let st = latest_status(&h);
    assert!(
        st.contains("… Bob · bank 2h, ends <t:1767247200:F>"),
        "{st}"
    );

    // 00:10 Alice orders: her bank stops.
    h.advance(600);
    h.fake.dm(alice, "6");
    h.fake.wait_dm(alice.id, 3).await;
    let ordered = t.take(&h).await;
    assert_eq!(ordered, ["00:10 DM Alice: Race #1: order in"]);
    let st = latest_status(&h);
    assert!(
        st.contains("✓ Alice") && st.contains("bank 1h50m\n"),
        "{st}"
    );

    // 01:30, half an hour before the first bank ends: the nudge names Bob and Carol.
    h.advance(80 * 60);
    let nudged = t.take(&h).await;
    assert_eq!(nudged, ["01:30 channel: Race #1: orders still to come"]);
    let nudge = h
        .fake
        .requests()
        .into_iter()
        .find(|r| {
            r.is("POST", &format!("/channels/{CHANNEL}/messages"))
                && r.body["content"].as_str().is_some_and(|c| c.contains("<@"))
        })
        .unwrap();
    assert_eq!(nudge.body["content"], "<@102> <@103>");
    assert_eq!(
        nudge.body["allowed_mentions"],
        json!({"parse": [], "roles": [], "users": ["102", "103"]})
    );

    // 02:00 Carol's bank runs out (Bob's runs on to 06:00); her order is refused.
    h.advance(30 * 60);
    let out = t.take(&h).await;
    assert_eq!(out, Vec::<String>::new(), "only the status is edited");
    let st = latest_status(&h);
    assert!(
        st.contains("Carol · bank ran out: the default order plays"),
        "{st}"
    );
    h.advance(10 * 60);
    h.fake.dm(carol, "5");
    let refused = h.fake.wait_dm(carol.id, 3).await;
    assert!(text_of(&refused).contains("Your bank ran out in this step, so your default order plays; your bank is 30m for the next step."), "{refused}");
    let refused = t.take(&h).await;
    // The refusal comes with the prompt again.
    assert_eq!(
        refused,
        ["02:10 DM Carol: Dream Mile race #1: Turn 1 of 8, Carol to order"]
    );

    // 05:00 Bob orders: the turn resolves, Carol's default played; turn 2's prompts.
    h.advance(170 * 60);
    h.fake.dm(bob, "5");
    h.fake.wait_dm(bob.id, 3).await;
    let resolved = t.take(&h).await;
    assert_eq!(
        resolved,
        [
            "05:00 DM Alice: Dream Mile race #1: Turn 2 of 8, Alice to order",
            "05:00 DM Bob: Dream Mile race #1: Turn 2 of 8, Bob to order",
            "05:00 DM Bob: Race #1: order in",
            "05:00 DM Carol: Dream Mile race #1: Turn 2 of 8, Carol to order",
            "05:00 channel: Dream Mile race #1: Turn 1 of 8",
        ]
    );
    let turn1 = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .map(|m| text_of(&m))
        .find(|t| t.contains("Orders and receipts"))
        .unwrap();
    assert!(turn1.contains("Missed orders: Carol: played"), "{turn1}");
    // Turn 2 from 05:00: Alice 2h - 10m + 30m, capped at the starting 2h (07:00); Bob
    // was charged his whole 2h, not his night: 30m, whose 05:30 end is in his quiet
    // hours (06:00); Carol 30m from her refill (05:30).
    let st = latest_status(&h);
    for line in [
        "… Alice · bank 2h, ends <t:1767250800:F>",
        "… Bob · bank 30m, ends <t:1767247200:F>",
        "… Carol · bank 30m, ends <t:1767245400:F>",
    ] {
        assert!(st.contains(line), "{line} in {st}");
    }
    assert_discord_was_happy(&h);
}
