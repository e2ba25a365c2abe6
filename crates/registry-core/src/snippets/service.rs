//! Snippets for an agent listed by an [AgentRegistry](crate::agentregistry): how to fetch the
//! registry's protocol-native documents about it, and the configuration an MCP client needs for
//! its MCP endpoints over HTTP.
//!
//! They are a `curl` per protocol document, and one `mcpServers` configuration holding every MCP
//! endpoint over HTTP.

use serde_json::{Map, json};

use super::{Note, posix_quote};
use crate::agentregistry::{Protocol, ServiceAgent, Transport};

/// One snippet of an AgentRegistry agent's page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceSnippet {
    /// What it is: `Fetch the A2A agent card`, `MCP client configuration`.
    pub title: String,
    /// The file it goes in, when it goes in one.
    pub file: Option<String>,
    /// The text to copy.
    pub code: String,
    /// What is needed, what to fill in.
    pub notes: Vec<Note>,
}

/// The snippets for `agent` on the registry at `base_url`: a `curl` per protocol document
/// ([`ServiceAgent::documents`]), then one `mcpServers` configuration holding every MCP endpoint
/// the agent has over HTTP(S) (keyed by the agent's id, or `<id>-<endpoint id>` when there are
/// several).
pub fn service_snippets(agent: &ServiceAgent, base_url: &str) -> Vec<ServiceSnippet> {
    let mut snippets: Vec<ServiceSnippet> = agent
        .documents()
        .into_iter()
        .map(|document| ServiceSnippet {
            title: format!("Fetch the {}", sentence_case(document.label)),
            file: None,
            code: format!("curl -s {}", posix_quote(&document.url(base_url))),
            notes: vec![Note::requirement("curl")],
        })
        .collect();

    let mcp: Vec<_> = agent
        .endpoints
        .iter()
        .filter(|e| {
            e.protocol == Protocol::Mcp
                && e.transport == Transport::Http
                && crate::url::safe_link(&e.address).is_some()
        })
        .collect();
    if !mcp.is_empty() {
        let mut servers = Map::new();
        for endpoint in &mcp {
            let key = if mcp.len() == 1 {
                agent.id.clone()
            } else {
                format!("{}-{}", agent.id, endpoint.id)
            };
            servers.insert(key, json!({ "type": "http", "url": endpoint.address }));
        }
        let config = json!({ "mcpServers": servers });
        let code = super::json_escape_invisible(
            &serde_json::to_string_pretty(&config).expect("a JSON value serialises"),
        );
        snippets.push(ServiceSnippet {
            title: "MCP client configuration".to_owned(),
            file: Some(".mcp.json".to_owned()),
            code,
            notes: vec![Note::caveat(
                "the `mcpServers` form of Claude Code, Cursor and most MCP clients; VS Code \
                 calls the key `servers`",
            )],
        });
    }
    snippets
}

/// `Queued A2A agent card` → `queued A2A agent card`; a leading acronym (`MCP server card`) stays.
fn sentence_case(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            format!("{}{}", first.to_lowercase(), &label[first.len_utf8()..])
        }
        _ => label.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agentregistry::{Endpoint, LivenessModel};
    use serde_json::Value;

    fn endpoint(id: &str, protocol: Protocol, transport: Transport, address: &str) -> Endpoint {
        Endpoint {
            id: id.to_owned(),
            name: id.to_owned(),
            transport,
            protocol,
            address: address.to_owned(),
            liveness_model: LivenessModel::Persistent,
            ttl_seconds: None,
            heartbeat_interval_seconds: Some(30),
            is_live: Some(true),
            protocol_metadata: None,
        }
    }

    fn agent(id: &str, endpoints: Vec<Endpoint>) -> ServiceAgent {
        ServiceAgent {
            id: id.to_owned(),
            name: "Agent".to_owned(),
            description: None,
            owner_id: "team".to_owned(),
            labels: Default::default(),
            capabilities: Vec::new(),
            endpoints,
            created_at: None,
            updated_at: None,
        }
    }

    #[test]
    fn documents_are_fetched_with_their_url_as_one_word() {
        let a = agent(
            "it's",
            vec![endpoint(
                "q",
                Protocol::A2a,
                Transport::Amqp,
                "tasks.invoices",
            )],
        );
        let snippets = service_snippets(&a, "https://reg.example.com/");
        let titles: Vec<_> = snippets.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Fetch the A2A agent card",
                "Fetch the queued A2A agent card"
            ]
        );
        let codes: Vec<_> = snippets.iter().map(|s| s.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "curl -s https://reg.example.com/a2a/agents/it%27s",
                "curl -s https://reg.example.com/a2a/async/agents/it%27s",
            ]
        );
        let parsed: Vec<Vec<String>> = codes
            .iter()
            .map(|c| shell_words::split(c).unwrap())
            .collect();
        assert_eq!(parsed[0][2], "https://reg.example.com/a2a/agents/it%27s");
    }

    #[test]
    fn mcp_over_http_gets_an_mcp_servers_entry() {
        let a = agent(
            "weather",
            vec![
                endpoint(
                    "main",
                    Protocol::Mcp,
                    Transport::Http,
                    "https://w.example.com/mcp?units=metric&lang=en",
                ),
                endpoint(
                    "bus",
                    Protocol::Mcp,
                    Transport::AzureServiceBus,
                    "weather-q",
                ),
            ],
        );
        let snippets = service_snippets(&a, "https://reg.example.com");
        assert_eq!(snippets.len(), 2, "{snippets:?}");
        assert_eq!(
            snippets[0].code,
            "curl -s https://reg.example.com/mcp/servers/weather"
        );
        let config: Value = serde_json::from_str(&snippets[1].code).unwrap();
        assert_eq!(
            config,
            json!({ "mcpServers": { "weather": { "type": "http", "url": "https://w.example.com/mcp?units=metric&lang=en" } } })
        );
    }

    #[test]
    fn several_mcp_endpoints_are_told_apart_and_unsafe_urls_left_out() {
        let a = agent(
            "w",
            vec![
                endpoint("a", Protocol::Mcp, Transport::Http, "https://a.example.com"),
                endpoint("b", Protocol::Mcp, Transport::Http, "http://b.example.com"),
                endpoint("c", Protocol::Mcp, Transport::Http, "javascript:alert(1)"),
            ],
        );
        let snippets = service_snippets(&a, "https://reg.example.com");
        let config: Value = serde_json::from_str(&snippets.last().unwrap().code).unwrap();
        let keys: Vec<_> = config["mcpServers"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["w-a", "w-b"]);
    }

    #[test]
    fn generic_agents_over_queues_have_no_snippet() {
        let a = agent(
            "g",
            vec![endpoint("x", Protocol::Generic, Transport::Amqp, "q")],
        );
        assert_eq!(service_snippets(&a, "https://reg.example.com"), vec![]);
    }
}
