//! Unit tests of the layout: every Discord limit and every `custom_id` round trip.
use super::*;
use crate::render::message::Picture;

fn post(body: &str) -> Post {
    Post {
        title: "t".into(),
        body: body.into(),
        track: None,
        fields: vec![],
        footer: None,
        choices: vec![],
        view: None,
        picture: Picture::None,
    }
}

fn check_message_limits(embeds: &[EmbedSpec], rows: &[Row]) {
    assert!(embeds.len() <= limits::EMBEDS);
    assert!(embeds.iter().map(EmbedSpec::size).sum::<usize>() <= limits::EMBED_TOTAL);
    for e in embeds {
        assert!(chars(&e.title) <= limits::TITLE);
        assert!(chars(&e.description) <= limits::DESCRIPTION);
        assert!(e.fields.len() <= limits::FIELDS);
        for (n, v) in &e.fields {
            assert!(chars(n) <= limits::FIELD_NAME);
            assert!(chars(v) <= limits::FIELD_VALUE);
        }
    }
    assert!(rows.len() <= limits::ROWS);
    let mut ids = std::collections::HashSet::new();
    for r in rows {
        match r {
            Row::Buttons(b) => {
                assert!(!b.is_empty() && b.len() <= limits::BUTTONS_PER_ROW);
                for b in b {
                    assert!(chars(&b.custom_id) <= limits::CUSTOM_ID);
                    assert!(chars(&b.label) <= limits::BUTTON_LABEL);
                    assert!(ids.insert(b.custom_id.clone()), "duplicate id");
                }
            }
            Row::Select(s) => {
                assert!(chars(&s.custom_id) <= limits::CUSTOM_ID);
                assert!(!s.options.is_empty() && s.options.len() <= limits::SELECT_OPTIONS);
                assert!(ids.insert(s.custom_id.clone()), "duplicate id");
                for (l, v) in &s.options {
                    assert!(chars(l) <= limits::OPTION_TEXT);
                    assert!(chars(v) <= limits::OPTION_TEXT);
                }
            }
        }
    }
}

#[test]
fn a_picture_is_one_file_shown_by_the_first_embed() {
    let mut l = Layout {
        embeds: embeds(&post("x"), None),
        ..Layout::default()
    };
    attach_picture(
        &mut l,
        "race-1-turn-2-of-8.png".into(),
        vec![1, 2],
        &"a".repeat(2000),
    );
    assert_eq!(l.files.len(), 1);
    assert_eq!(
        l.embeds[0].image.as_deref(),
        Some("attachment://race-1-turn-2-of-8.png")
    );
    let alt = l.files[0].description.as_deref().unwrap();
    assert_eq!(chars(alt), limits::ATTACHMENT_DESCRIPTION);
}

#[test]
fn sixteen_speeds_are_four_rows_of_buttons_that_read_back() {
    let choices: Vec<Choice> = (0..=15)
        .map(|v| Choice::new(v.to_string(), v.to_string()))
        .collect();
    let rows = choice_rows(CampaignId(12), 3, Seat(4), &choices, Some("7"));
    check_message_limits(&[], &rows);
    assert_eq!(rows.len(), 4);
    let Row::Buttons(second) = &rows[1] else {
        panic!("buttons expected")
    };
    assert_eq!(second[2].label, "7");
    assert_eq!(second[2].style, ButtonStyle::Success);
    assert_eq!(second[1].style, ButtonStyle::Secondary);
    assert_eq!(
        parse_id(&second[2].custom_id),
        Some(Action::Order {
            race: CampaignId(12),
            step: 3,
            seat: Seat(4),
            pick: Pick::Text("7".into())
        })
    );
}

#[test]
fn many_or_grouped_choices_become_menus_within_limits() {
    let many: Vec<Choice> = (0..60)
        .map(|v| Choice::new(format!("play {v}"), format!("Play {v}")))
        .collect();
    let rows = choice_rows(CampaignId(1), 0, Seat(0), &many, None);
    check_message_limits(&[], &rows);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| matches!(r, Row::Select(_))));

    // Four groups: a menu each.
    let grouped: Vec<Choice> = (0..4)
        .flat_map(|card| {
            (0..4).map(move |t| {
                Choice::new(format!("card {card} on {t}"), format!("on {t}"))
                    .grouped(format!("Card {card}"))
            })
        })
        .collect();
    let rows = choice_rows(CampaignId(1), 0, Seat(0), &grouped, None);
    check_message_limits(&[], &rows);
    assert_eq!(rows.len(), 4);
    let Row::Select(first) = &rows[0] else {
        panic!()
    };
    assert_eq!(first.placeholder, "Card 0");
    assert_eq!(first.options.len(), 4);
    assert_eq!(first.options[1].0, "on 1");
    assert_eq!(
        parse_value(&first.options[1].1),
        Some(Pick::Text("card 0 on 1".into()))
    );
    assert_eq!(
        parse_id(&first.custom_id),
        Some(Action::OrderMenu {
            race: CampaignId(1),
            step: 0,
            seat: Seat(0)
        })
    );
}

/// Every order of a prompt's choices that its components carry.
fn carried(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for r in rows {
        match r {
            Row::Buttons(b) => {
                for b in b {
                    if let Some(Action::Order {
                        pick: Pick::Text(t),
                        ..
                    }) = parse_id(&b.custom_id)
                    {
                        out.push(t);
                    }
                }
            }
            Row::Select(s) => {
                for (_, v) in &s.options {
                    if let Some(Pick::Text(t)) = parse_value(v) {
                        out.push(t);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn more_groups_than_rows_share_menus_and_keep_every_choice() {
    // A card race hand: seven different cards, each its own group, one attack with two
    // targets, and junk for each card: nine groups, more than five menus.
    let mut choices = vec![Choice::new("draw", "draw and play")];
    for card in ["25", "50", "75", "100", "200", "Go"] {
        choices.push(Choice::new(format!("play {card}"), card).grouped(card));
    }
    for t in ["Bob", "Dave"] {
        choices.push(Choice::new(format!("play Stop @{t}"), format!("Stop → {t}")).grouped("Stop"));
    }
    for card in ["25", "50", "75", "100", "200", "Go", "Stop"] {
        choices.push(Choice::new(format!("junk {card}"), format!("junk {card}")).grouped("junk"));
    }
    let rows = choice_rows(CampaignId(3), 9, Seat(1), &choices, None);
    check_message_limits(&[], &rows);
    assert!(rows.len() <= limits::ROWS);
    let mut want: Vec<String> = choices.iter().map(|c| c.order.clone()).collect();
    let mut got = carried(&rows);
    want.sort();
    got.sort();
    assert_eq!(got, want, "every choice has a component");
    // The one choice outside the groups is a button above the menus.
    let Row::Buttons(top) = &rows[0] else {
        panic!("a row of buttons first")
    };
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].label, "draw and play");
    // Options name their group when groups share a menu, unless the label already does.
    let Row::Select(first) = &rows[1] else {
        panic!("menus expected")
    };
    let labels: Vec<&str> = first.options.iter().map(|(l, _)| l.as_str()).collect();
    assert!(labels.contains(&"Stop → Bob"), "{labels:?}");
    assert!(labels.contains(&"25"), "{labels:?}");
    assert!(first.placeholder.contains("Stop"), "{}", first.placeholder);

    // A dirty trick's answers stay buttons beside a hand's menus.
    let mut window = vec![
        Choice::new("counter", "dirty trick!"),
        Choice::new("decline", "let it stand"),
    ];
    window.extend(choices.iter().skip(1).cloned());
    let rows = choice_rows(CampaignId(3), 9, Seat(1), &window, None);
    check_message_limits(&[], &rows);
    let Row::Buttons(top) = &rows[0] else {
        panic!("buttons first")
    };
    let tops: Vec<&str> = top.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(tops, vec!["dirty trick!", "let it stand"]);
    let mut want: Vec<String> = window.iter().map(|c| c.order.clone()).collect();
    let mut got = carried(&rows);
    want.sort();
    got.sort();
    assert_eq!(got, want);

    // Beyond five full menus only the rest is left out.
    let huge: Vec<Choice> = (0..40)
        .flat_map(|g| {
            (0..4).map(move |k| {
                Choice::new(format!("g{g} {k}"), format!("{k}")).grouped(format!("G{g}"))
            })
        })
        .collect();
    let rows = choice_rows(CampaignId(3), 9, Seat(1), &huge, None);
    check_message_limits(&[], &rows);
    assert_eq!(rows.len(), 5);
    assert_eq!(
        carried(&rows).len(),
        5 * 24,
        "groups are kept whole in a menu"
    );
}

#[test]
fn long_orders_and_labels_are_carried_by_index_and_clipped() {
    let long = "x".repeat(150);
    let choices = vec![
        Choice::new(long.clone(), "y".repeat(120)),
        Choice::new("1", "1"),
        Choice::new("1", "duplicate"),
    ];
    let rows = choice_rows(CampaignId(123456789), 4_000_000, Seat(11), &choices, None);
    check_message_limits(&[], &rows);
    let Row::Buttons(b) = &rows[0] else { panic!() };
    assert_eq!(b.len(), 2, "a duplicate order gets one button");
    assert_eq!(chars(&b[0].label), limits::BUTTON_LABEL);
    assert!(b[0].label.ends_with('…'));
    assert_eq!(
        parse_id(&b[0].custom_id),
        Some(Action::Order {
            race: CampaignId(123456789),
            step: 4_000_000,
            seat: Seat(11),
            pick: Pick::Index(0)
        })
    );
    assert_eq!(parse_value(&option_value(3, &long)), Some(Pick::Index(3)));
}

#[test]
fn foreign_ids_are_not_read() {
    assert_eq!(parse_id("something:else"), None);
    assert_eq!(parse_id("pf:o:x:1:1:7"), None);
    assert_eq!(parse_id("pf:q:1:1:1:7"), None);
    assert_eq!(parse_id("pf:join:4"), Some(Action::Join(CampaignId(4))));
    assert_eq!(parse_id("pf:leave:4"), Some(Action::Leave(CampaignId(4))));
    assert_eq!(
        parse_id("pf:o:4:2:1:play 7: fast"),
        Some(Action::Order {
            race: CampaignId(4),
            step: 2,
            seat: Seat(1),
            pick: Pick::Text("play 7: fast".into())
        })
    );
}

#[test]
fn long_posts_are_spread_and_cut_within_limits() {
    let line = "Alice passes Frank, Dave and Emily, and Carol. ".repeat(3);
    let body: Vec<String> = (0..400).map(|i| format!("{i} {line}")).collect();
    let mut p = post(&body.join("\n"));
    p.track = Some("track\n".repeat(50));
    p.footer = Some("Next: Turn 3; orders due <t:1:F> (<t:1:R>)".into());
    for i in 0..40 {
        p.fields.push((format!("Field {i}"), "v\n".repeat(700)));
    }
    let e = embeds(&p, Some("Next: Turn 3; orders due Thu 01 Jan"));
    check_message_limits(&e, &[]);
    // The deadline is said once, in the text.
    assert_eq!(e[0].footer, None);
    assert!(e.last().unwrap().description.contains("cut to fit"));
}

#[test]
fn a_short_post_keeps_everything_and_renders_the_deadline_in_the_text() {
    let mut p = post("Carol takes the lead.");
    p.track = Some("1. Carol\n2. Dave".into());
    p.fields
        .push(("Missed orders".into(), "Emily: played 0".into()));
    p.footer = Some("Due <t:1767225600:F> (<t:1767225600:R>).".into());
    let e = embeds(&p, Some("Due Thu 01 Jan 00:00:00 UTC."));
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].description,
        "Carol takes the lead.\n\n```\n1. Carol\n2. Dave\n```\n\nDue <t:1767225600:F> (<t:1767225600:R>)."
    );
    assert_eq!(
        e[0].fields,
        vec![("Missed orders".into(), "Emily: played 0".into())]
    );
    assert_eq!(e[0].footer, None);
}

fn prompt_of(choices: Vec<Choice>, complete: bool) -> crate::engine::Prompt {
    crate::engine::Prompt {
        text: "t".into(),
        choices,
        complete,
        hint: "h".into(),
    }
}

fn has_other(rows: &[Row]) -> bool {
    rows.iter().any(|r| match r {
        Row::Buttons(b) => b.iter().any(|b| b.label == OTHER_ORDER),
        Row::Select(_) => false,
    })
}

#[test]
fn other_order_shows_only_when_the_buttons_cannot_hold_every_order() {
    let few: Vec<Choice> = (0..11)
        .map(|v| Choice::new(v.to_string(), v.to_string()))
        .collect();
    // Every legal order has a button: no modal.
    let rows = prompt_rows(
        CampaignId(1),
        2,
        Seat(0),
        &prompt_of(few.clone(), true),
        None,
    );
    assert!(!has_other(&rows));
    // A useful subset (1500m): the modal button, before the autopilot button.
    let rows = prompt_rows(CampaignId(1), 2, Seat(0), &prompt_of(few, false), None);
    check_message_limits(&[], &rows);
    let Some(Row::Buttons(last)) = rows.last() else {
        panic!("{rows:?}")
    };
    let labels: Vec<&str> = last.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(
        &labels[labels.len() - 2..],
        [OTHER_ORDER, "Let the bot play for me"]
    );
    assert_eq!(
        parse_id(&other_id(CampaignId(1), 2, Seat(0))),
        Some(Action::OtherOrder {
            race: CampaignId(1),
            step: 2,
            seat: Seat(0)
        })
    );
    // More choices than five menus of 25 hold: the rest can be typed in the modal.
    let many: Vec<Choice> = (0..200)
        .map(|v| {
            Choice::new(format!("play {v}"), format!("Play {v}")).grouped(format!("G{}", v / 10))
        })
        .collect();
    let rows = prompt_rows(CampaignId(1), 2, Seat(0), &prompt_of(many, true), None);
    check_message_limits(&[], &rows);
    assert!(rows.len() <= limits::ROWS);
}

#[test]
fn replace_menu_ids_read_back() {
    let id = replace_id(CampaignId(4), 123_456_789_012_345_678);
    assert!(id.chars().count() <= limits::CUSTOM_ID);
    assert_eq!(
        parse_id(&id),
        Some(Action::ReplaceSeat {
            race: CampaignId(4),
            user: 123_456_789_012_345_678
        })
    );
    assert_eq!(parse_id("pf:rs:4:x"), None);
    assert_eq!(parse_id("pf:m:1:2:0:nope"), None);
}
