//! Autocomplete interactions (type 4): a `/race <sub>` with one option focused, and the
//! choices the bot answers with (callback type 8).

use serde_json::{Value, json};

use super::{COMMAND_ID, FakeDiscord, User};

impl FakeDiscord {
    /// Sends an autocomplete for `/race <sub>`, `focused` being typed as `partial` beside
    /// the already-filled `options`. Returns the interaction id.
    pub fn autocomplete(
        &self,
        user: &User,
        channel: u64,
        sub: &str,
        focused: &str,
        partial: &str,
        options: &[(&str, Value)],
    ) -> u64 {
        let (id, token) = self.new_interaction(channel, None);
        let mut opts: Vec<Value> = options
            .iter()
            .map(|(name, value)| {
                let kind = match value {
                    Value::Bool(_) => 5,
                    Value::Number(_) => 4,
                    _ => 3,
                };
                json!({"name": name, "type": kind, "value": value})
            })
            .collect();
        opts.push(json!({"name": focused, "type": 3, "value": partial, "focused": true}));
        let data = json!({
            "id": COMMAND_ID.to_string(),
            "name": "race",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        });
        let v = self.interaction_json(id, &token, 4, user, channel, data, None);
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// The (name, value) choices the bot answered an autocomplete with.
    pub async fn choices(&self, id: u64) -> Vec<(String, String)> {
        let r = self.response(id).await;
        assert_eq!(r["type"], 8, "an autocomplete answer: {r}");
        let list = r["data"]["choices"].as_array().cloned().unwrap_or_default();
        assert!(list.len() <= 25, "at most 25 choices: {r}");
        list.iter()
            .map(|c| {
                let name = c["name"].as_str().unwrap_or_default().to_string();
                assert!(
                    name.chars().count() <= 100,
                    "a choice name of 100 at most: {c}"
                );
                let value = match &c["value"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (name, value)
            })
            .collect()
    }
}
