//! Reading what the bot sent: a message's (or an interaction answer's) text, its
//! components and the orders they carry, and whether an answer is ephemeral.

use photofinish::engine::Prompt;
use serde_json::Value;

use super::{CHANNEL, Recorded};

/// True for an outbox payload that is an earlier part of a long round told in parts: it
/// names the round's steps, as its last part does, which is the one to count them by.
pub fn earlier_part(payload: &Value) -> bool {
    let part = &payload["part"];
    matches!((part[0].as_u64(), part[1].as_u64()), (Some(i), Some(n)) if i < n)
}

/// True for a post in the races' channel ([`CHANNEL`]).
pub fn in_channel(m: &Value) -> bool {
    m["channel_id"] == CHANNEL.to_string().as_str()
}

/// Text of a message or interaction answer: content, embed titles, descriptions, fields.
pub fn text_of(m: &Value) -> String {
    let m = if m.get("data").is_some() && m.get("embeds").is_none() {
        &m["data"]
    } else {
        m
    };
    let mut out = vec![m["content"].as_str().unwrap_or("").to_string()];
    for e in m["embeds"].as_array().cloned().unwrap_or_default() {
        out.push(e["title"].as_str().unwrap_or("").to_string());
        out.push(e["description"].as_str().unwrap_or("").to_string());
        for f in e["fields"].as_array().cloned().unwrap_or_default() {
            out.push(format!(
                "{}: {}",
                f["name"].as_str().unwrap_or(""),
                f["value"].as_str().unwrap_or("")
            ));
        }
        out.push(e["footer"]["text"].as_str().unwrap_or("").to_string());
    }
    out.join("\n")
}

/// The custom_ids of a message's components, in order.
pub fn custom_ids(m: &Value) -> Vec<String> {
    components(m)
        .iter()
        .filter_map(|c| c["custom_id"].as_str().map(String::from))
        .collect()
}

/// The custom_id of the button labelled `label`.
pub fn button(m: &Value, label: &str) -> String {
    components(m)
        .iter()
        .find(|c| c["label"] == label)
        .and_then(|c| c["custom_id"].as_str().map(String::from))
        .unwrap_or_else(|| panic!("no button `{label}` in {m}"))
}

/// True when an interaction answer is visible only to its user.
pub fn is_ephemeral(answer: &Value) -> bool {
    answer["data"]["flags"]
        .as_u64()
        .is_some_and(|f| f & 64 != 0)
}

/// The step a prompt's components are for, read from their custom_ids.
pub fn step_of(m: &Value) -> Option<u32> {
    custom_ids(m).iter().find_map(|id| {
        let parts: Vec<&str> = id.splitn(6, ':').collect();
        match parts.as_slice() {
            ["pf", "o" | "i" | "s", _, step, _, _] => step.parse().ok(),
            _ => None,
        }
    })
}

/// The components of a message (or an interaction answer).
pub fn components(m: &Value) -> Vec<Value> {
    let m = if m.get("data").is_some() && m.get("components").is_none() {
        &m["data"]
    } else {
        m
    };
    m["components"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// How to choose `order` on a prompt message: a button's id, or a menu's id and value.
pub fn component_for(
    m: &Value,
    order: &str,
    index: Option<usize>,
) -> Option<(String, Option<String>)> {
    for c in components(m) {
        let id = c["custom_id"].as_str().unwrap_or("").to_string();
        if c["type"] == 2 {
            let parts: Vec<&str> = id.splitn(6, ':').collect();
            match parts.as_slice() {
                ["pf", "o", _, _, _, o] if *o == order => return Some((id, None)),
                ["pf", "i", _, _, _, i] if index.is_some_and(|n| i.parse() == Ok(n)) => {
                    return Some((id, None));
                }
                _ => {}
            }
        } else {
            for o in c["options"].as_array().cloned().unwrap_or_default() {
                let v = o["value"].as_str().unwrap_or("");
                let hit = v.strip_prefix("o:") == Some(order)
                    || index.is_some_and(|n| v.strip_prefix("i:") == Some(&n.to_string()));
                if hit {
                    return Some((id, Some(v.to_string())));
                }
            }
        }
    }
    None
}

/// The labels of a message's components (buttons and menu options).
pub fn labels(m: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for c in components(m) {
        if let Some(l) = c["label"].as_str() {
            out.push(l.to_string());
        }
        for o in c["options"].as_array().cloned().unwrap_or_default() {
            if let Some(l) = o["label"].as_str() {
                out.push(l.to_string());
            }
        }
    }
    out
}

/// Every order a prompt message's components carry (by text, or by index into `prompt`).
pub fn carried_orders(m: &Value, prompt: &Prompt) -> Vec<String> {
    let mut out = Vec::new();
    for c in components(m) {
        let id = c["custom_id"].as_str().unwrap_or("");
        let parts: Vec<&str> = id.splitn(6, ':').collect();
        match parts.as_slice() {
            ["pf", "o", _, _, _, o] => out.push(o.to_string()),
            ["pf", "i", _, _, _, i] => {
                if let Some(ch) = i.parse::<usize>().ok().and_then(|i| prompt.choices.get(i)) {
                    out.push(ch.order.clone());
                }
            }
            _ => {}
        }
        for o in c["options"].as_array().cloned().unwrap_or_default() {
            let v = o["value"].as_str().unwrap_or("");
            if let Some(t) = v.strip_prefix("o:") {
                out.push(t.to_string());
            } else if let Some(ch) = v
                .strip_prefix("i:")
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| prompt.choices.get(i))
            {
                out.push(ch.order.clone());
            }
        }
    }
    out
}

/// True for a request that answers an interaction: its callback, or (for a deferred
/// answer) a follow-up or edit through the interaction's webhook.
pub fn answers_an_interaction(r: &Recorded) -> bool {
    r.path.starts_with("/interactions/") || r.path.starts_with("/webhooks/")
}
