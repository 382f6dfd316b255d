//! Discord's own OpenAPI document (`tests/fixtures/discord-api-spec/openapi.json`) as the
//! fake's check on every REST request: the route and method exist, the path and query
//! parameters fit their schemas, and the JSON body (or a multipart form's `payload_json`)
//! fits the operation's request schema. The document is read once per test process and
//! every operation's schemas compiled then, before the first request is checked.
//!
//! OpenAPI 3.1 schemas are JSON Schema 2020-12, so `boon` validates them as written:
//! `$ref`s resolve inside the document, `oneOf`/`anyOf` and `"type": [.., "null"]` as the
//! spec writes them, and formats (Discord's own `snowflake`, `int64`...) are annotations.

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// Where the document is registered with the compiler (any absolute URL would do).
const BASE: &str = "file:///discord/openapi.json";

/// Why a request does not fit the spec: an unknown route or method (Discord answers 404
/// or 405), or a parameter or body that does not validate (400, code 50035).
#[derive(Clone, Debug)]
pub struct Invalid {
    pub status: u16,
    pub code: i64,
    pub message: String,
    /// Discord's `errors` object: the offending field's path down to `_errors`.
    pub errors: Value,
}

impl Invalid {
    fn form(errors: Value) -> Invalid {
        Invalid {
            status: 400,
            code: 50035,
            message: "Invalid Form Body".into(),
            errors,
        }
    }

    /// The body Discord answers with.
    pub fn body(&self) -> Value {
        if self.code == 50035 {
            json!({"code": self.code, "message": self.message, "errors": self.errors})
        } else {
            json!({"code": self.code, "message": self.message})
        }
    }

    /// One line for the fake's record of the refusal.
    pub fn summary(&self) -> String {
        format!("spec: {} {}", self.message, self.errors)
    }
}

/// One operation of the document: its path template's segments, its parameters and its
/// request body, each with its compiled schema.
struct Operation {
    /// The JSON pointer of the operation (`/paths/~1channels~1{channel_id}~1messages/post`).
    pointer: String,
    segments: Vec<String>,
    method: String,
    parameters: Vec<Parameter>,
    /// The JSON request schema, and whether a body is required.
    body: Option<(boon::SchemaIndex, bool)>,
}

struct Parameter {
    name: String,
    /// `path` or `query`.
    place: String,
    required: bool,
    schema: boon::SchemaIndex,
}

struct Spec {
    operations: Vec<Operation>,
    schemas: boon::Schemas,
}

/// The document, read and compiled once per test process.
fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/discord-api-spec/openapi.json"
        );
        let text = std::fs::read_to_string(file).unwrap();
        let mut doc: Value = serde_json::from_str(&text).unwrap();
        lenient(&mut doc);
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        compiler.add_resource(BASE, doc.clone()).unwrap();
        let mut schemas = boon::Schemas::new();
        let mut compile = |pointer: &str| {
            // `{` and `}` are not allowed raw in a URL's fragment.
            let frag = pointer.replace('{', "%7B").replace('}', "%7D");
            compiler
                .compile(&format!("{BASE}#{frag}"), &mut schemas)
                .unwrap_or_else(|e| panic!("the spec's schema at {pointer} compiles: {e}"))
        };
        let operations = operations(&doc, &mut compile);
        Spec {
            operations,
            schemas,
        }
    })
}

/// Where Discord accepts more than its spec says, and the bot (through serenity) relies on
/// it. Each is Discord's documented behaviour.
fn lenient(doc: &mut Value) {
    // A new upload's `attachments[].id` is the index of its `files[n]` field: Discord's
    // own "Uploading Files" example sends it as a number (`"id": 0`), as serenity does;
    // the spec asks for a snowflake string.
    if let Some(id) = doc.pointer_mut("/components/schemas/MessageAttachmentRequest/properties/id")
    {
        *id = json!({"anyOf": [
            {"$ref": "#/components/schemas/SnowflakeType"},
            {"type": "integer", "minimum": 0},
        ]});
    }
    // A command's `default_member_permissions` is a permission bit set "?string" in
    // Discord's documentation, as serenity sends it; the spec's requests say integer.
    for schema in [
        "ApplicationCommandCreateRequest",
        "ApplicationCommandPatchRequestPartial",
        "ApplicationCommandUpdateRequest",
    ] {
        let at = format!("/components/schemas/{schema}/properties/default_member_permissions");
        if let Some(p) = doc.pointer_mut(&at) {
            *p = json!({"anyOf": [
                p.clone(),
                {"type": "string", "pattern": "^[0-9]{1,17}$"},
            ]});
        }
    }
}

/// A JSON pointer token (`/` and `~` escaped).
fn token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn operations(doc: &Value, compile: &mut impl FnMut(&str) -> boon::SchemaIndex) -> Vec<Operation> {
    let mut out = Vec::new();
    let Some(paths) = doc["paths"].as_object() else {
        return out;
    };
    for (template, item) in paths {
        let item_ptr = format!("/paths/{}", token(template));
        for method in ["get", "put", "post", "patch", "delete"] {
            let Some(op) = item.get(method) else { continue };
            let pointer = format!("{item_ptr}/{method}");
            let mut parameters = params(doc, item.get("parameters"), &item_ptr, compile);
            parameters.extend(params(doc, op.get("parameters"), &pointer, compile));
            let body = op.get("requestBody").and_then(|b| {
                b["content"].get("application/json").map(|_| {
                    (
                        compile(&format!(
                            "{pointer}/requestBody/content/application~1json/schema"
                        )),
                        b["required"] == true,
                    )
                })
            });
            out.push(Operation {
                pointer,
                segments: template
                    .trim_start_matches('/')
                    .split('/')
                    .map(String::from)
                    .collect(),
                method: method.to_uppercase(),
                parameters,
                body,
            });
        }
    }
    out
}

fn params(
    doc: &Value,
    list: Option<&Value>,
    at: &str,
    compile: &mut impl FnMut(&str) -> boon::SchemaIndex,
) -> Vec<Parameter> {
    let mut out = Vec::new();
    for (i, p) in list
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        // A parameter may itself be a `$ref` to components/parameters.
        let (p, ptr) = match p["$ref"].as_str() {
            Some(r) => match doc.pointer(r.trim_start_matches('#')) {
                Some(target) => (target, r.trim_start_matches('#').to_string()),
                None => continue,
            },
            None => (p, format!("{at}/parameters/{i}")),
        };
        out.push(Parameter {
            name: p["name"].as_str().unwrap_or_default().to_string(),
            place: p["in"].as_str().unwrap_or_default().to_string(),
            required: p["required"] == true,
            schema: compile(&format!("{ptr}/schema")),
        });
    }
    out
}

/// Validates `value` against a compiled schema.
fn validate(schema: boon::SchemaIndex, value: &Value) -> Result<(), Value> {
    spec()
        .schemas
        .validate(value, schema)
        .map_err(|e| errors_object(&e))
}

/// Discord's `errors` shape: `{"field": {"_errors": [{"code", "message"}]}}`, nested down
/// the offending value's path, from the validator's deepest causes.
fn errors_object(e: &boon::ValidationError) -> Value {
    let mut leaves = Vec::new();
    collect_leaves(e, &mut leaves);
    let mut root = Value::Object(Map::new());
    for (path, message) in leaves {
        let mut at = &mut root;
        for key in path {
            at = at
                .as_object_mut()
                .map(|m| m.entry(key).or_insert_with(|| json!({})))
                .unwrap();
        }
        let list = at
            .as_object_mut()
            .map(|m| m.entry("_errors").or_insert_with(|| json!([])))
            .unwrap();
        if let Some(list) = list.as_array_mut() {
            list.push(json!({"code": "SPEC_INVALID", "message": message}));
        }
    }
    root
}

fn collect_leaves(e: &boon::ValidationError, out: &mut Vec<(Vec<String>, String)>) {
    if e.causes.is_empty() {
        let path = e
            .instance_location
            .tokens
            .iter()
            .map(|t| match t {
                boon::InstanceToken::Prop(p) => p.to_string(),
                boon::InstanceToken::Item(i) => i.to_string(),
            })
            .collect();
        out.push((path, e.kind.to_string()));
    }
    for c in &e.causes {
        collect_leaves(c, out);
    }
}

/// A query or path value (always a string on the wire) as the JSON its schema expects.
fn typed(raw: &str) -> Vec<Value> {
    let mut tries = vec![Value::String(raw.to_string())];
    if let Ok(b) = raw.parse::<bool>() {
        tries.push(Value::Bool(b));
    }
    if let Ok(n) = raw.parse::<i64>() {
        tries.push(json!(n));
    }
    if let Ok(n) = raw.parse::<f64>() {
        tries.push(json!(n));
    }
    tries
}

/// Checks a REST request (`path` after `/api/v10`, `query` without its `?`) against the
/// spec. `body` is the JSON body or `payload_json`, `Value::Null` when there is none.
pub fn check(method: &str, path: &str, query: &str, body: &Value) -> Result<(), Invalid> {
    let spec = spec();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // Of the templates that match, the one with the most literal segments
    // (`/users/@me/channels` before `/users/{user_id}/channels`).
    let fits = |o: &&Operation| {
        o.segments.len() == parts.len()
            && o.segments
                .iter()
                .zip(&parts)
                .all(|(s, p)| s.starts_with('{') || s == p)
    };
    let literal = |o: &Operation| o.segments.iter().filter(|s| !s.starts_with('{')).count();
    let mut matching: Vec<&Operation> = spec.operations.iter().filter(fits).collect();
    if matching.is_empty() {
        return Err(Invalid {
            status: 404,
            code: 0,
            message: "404: Not Found".into(),
            errors: Value::Null,
        });
    }
    let best = matching.iter().map(|o| literal(o)).max().unwrap_or(0);
    matching.retain(|o| literal(o) == best);
    let Some(op) = matching.iter().find(|o| o.method == method) else {
        return Err(Invalid {
            status: 405,
            code: 0,
            message: "405: Method Not Allowed".into(),
            errors: Value::Null,
        });
    };
    check_parameters(op, &parts, query)?;
    match &op.body {
        Some((schema, required)) => {
            if body.is_null() && !required {
                return Ok(());
            }
            validate(*schema, body).map_err(Invalid::form)
        }
        None if body.is_null() || body == &json!({}) => Ok(()),
        None => Err(Invalid::form(json!({"_errors": [{
            "code": "SPEC_INVALID",
            "message": format!("{} takes no body", op.pointer),
        }]}))),
    }
}

fn check_parameters(op: &Operation, parts: &[&str], query: &str) -> Result<(), Invalid> {
    let mut bad = Map::new();
    let mut fail = |name: &str, message: String| {
        bad.insert(
            name.to_string(),
            json!({"_errors": [{"code": "SPEC_INVALID", "message": message}]}),
        );
    };
    for (segment, value) in op.segments.iter().zip(parts) {
        let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) else {
            continue;
        };
        if let Some(p) = op
            .parameters
            .iter()
            .find(|p| p.name == name && p.place == "path")
            && let Err(e) = validate(p.schema, &Value::String((*value).to_string()))
        {
            fail(name, format!("path parameter {value:?}: {e}"));
        }
    }
    let given: Vec<(&str, &str)> = query
        .split('&')
        .filter(|q| !q.is_empty())
        .map(|q| q.split_once('=').unwrap_or((q, "")))
        .collect();
    for (name, value) in &given {
        match op
            .parameters
            .iter()
            .find(|p| p.name == *name && p.place == "query")
        {
            None => fail(name, "not a query parameter of this route".into()),
            Some(p) => {
                if !typed(value).iter().any(|v| validate(p.schema, v).is_ok()) {
                    fail(
                        name,
                        format!("query value {value:?} does not fit its schema"),
                    );
                }
            }
        }
    }
    for p in op
        .parameters
        .iter()
        .filter(|p| p.place == "query" && p.required)
    {
        if !given.iter().any(|(n, _)| *n == p.name) {
            fail(&p.name, "required query parameter missing".into());
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(Invalid::form(Value::Object(bad)))
    }
}
