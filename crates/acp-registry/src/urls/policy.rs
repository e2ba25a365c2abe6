//! Which URLs `--check-urls` may request: the registry CI's `is_public_https_url`
//! (`.github/workflows/build_registry.py`), applied to each URL and to each redirect's target
//! before it is asked.
//!
//! - the scheme is `https`;
//! - the host is not a local name (`localhost`, `localhost.localdomain`, `*.localhost`);
//! - every address the host resolves to, or the IP literal it is, is public: not unspecified,
//!   loopback, private, shared (100.64.0.0/10), link-local, documentation, benchmarking,
//!   multicast, broadcast or reserved ([`non_public`]). An IPv4-mapped (`::ffff:a.b.c.d`) or
//!   NAT64 (`64:ff9b::a.b.c.d`) address is judged by its IPv4 address.
//!
//! [`Policy::AllowLoopback`] is for local test servers only: loopback addresses and names then
//! pass, and plain `http` is accepted for a loopback IP literal (`http://127.0.0.1:8080`,
//! `http://[::1]:8080`); nothing else changes.
//!
//! The rules are pure (the caller resolves the host) and live here, beside the requests, not in
//! `registry-validate`: they decide which requests this program may make, not whether a
//! manifest is valid; they need a URL parser (`url`), which `registry-validate`, also compiled
//! to wasm for the site, does without; and only this binary talks to the network.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// Which hosts may be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The CI's: https, public addresses only.
    Public,
    /// The CI's, plus loopback addresses and plain http to a loopback IP literal: for local
    /// test servers.
    AllowLoopback,
}

/// Why a URL may not be asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Another scheme than `https` (or `http` to a loopback IP literal, when allowed).
    #[error("not https")]
    NotHttps,
    /// No host (`file:`, `data:` and the like).
    #[error("no host")]
    NoHost,
    /// `localhost` or another local name.
    #[error("{0} is a local name")]
    LocalName(String),
    /// The host is, or resolves to, an address that is not public.
    #[error("host resolves to {} ({address})", kind.described())]
    NotPublic {
        /// The first such address.
        address: IpAddr,
        /// Which kind of address it is.
        kind: NonPublic,
    },
}

/// A kind of address that is not public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonPublic {
    /// `0.0.0.0/8`, `::`.
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// `10/8`, `172.16/12`, `192.168/16`, unique local `fc00::/7`.
    Private,
    /// Carrier-grade NAT, `100.64.0.0/10`.
    Shared,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// `198.18.0.0/15`.
    Benchmarking,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `192.0.0.0/24`, `240.0.0.0/4`, `2001::/23`, `2002::/16` and IPv6 outside `2000::/3`.
    Reserved,
}

impl NonPublic {
    /// `a private address`, `an unspecified address`, ...
    pub fn described(self) -> &'static str {
        match self {
            NonPublic::Unspecified => "an unspecified address",
            NonPublic::Loopback => "a loopback address",
            NonPublic::Private => "a private address",
            NonPublic::Shared => "a shared address",
            NonPublic::LinkLocal => "a link-local address",
            NonPublic::Documentation => "a documentation address",
            NonPublic::Benchmarking => "a benchmarking address",
            NonPublic::Multicast => "a multicast address",
            NonPublic::Broadcast => "the broadcast address",
            NonPublic::Reserved => "a reserved address",
        }
    }
}

impl Policy {
    /// Whether the scheme and host of `url` may be asked, before its host is resolved.
    pub fn check_url(self, url: &Url) -> Result<(), Refusal> {
        let host = url.host().ok_or(Refusal::NoHost)?;
        let loopback_literal = match host {
            Host::Ipv4(ip) => ip.is_loopback(),
            Host::Ipv6(ip) => ip.is_loopback(),
            Host::Domain(_) => false,
        };
        match url.scheme() {
            "https" => {}
            "http" if self == Policy::AllowLoopback && loopback_literal => {}
            _ => return Err(Refusal::NotHttps),
        }
        match host {
            Host::Domain(name) if self == Policy::Public && is_local_name(name) => {
                Err(Refusal::LocalName(name.to_owned()))
            }
            _ => Ok(()),
        }
    }

    /// Whether every address the host resolved to may be asked.
    pub fn check_addresses(self, addresses: &[IpAddr]) -> Result<(), Refusal> {
        let allowed = |kind| self == Policy::AllowLoopback && kind == NonPublic::Loopback;
        let refused = addresses.iter().find_map(|&address| {
            non_public(address)
                .filter(|&kind| !allowed(kind))
                .map(|kind| Refusal::NotPublic { address, kind })
        });
        refused.map_or(Ok(()), Err)
    }
}

/// The kind of `address` when it is not public; `None` when it is.
pub fn non_public(address: IpAddr) -> Option<NonPublic> {
    match address {
        IpAddr::V4(ip) => non_public_v4(ip),
        IpAddr::V6(ip) => non_public_v6(ip),
    }
}

/// IPv4 ranges without a stable `Ipv4Addr` method: network, prefix length, kind.
const V4_RANGES: &[(Ipv4Addr, u32, NonPublic)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8, NonPublic::Unspecified),
    (Ipv4Addr::new(100, 64, 0, 0), 10, NonPublic::Shared),
    (Ipv4Addr::new(192, 0, 0, 0), 24, NonPublic::Reserved),
    (Ipv4Addr::new(198, 18, 0, 0), 15, NonPublic::Benchmarking),
    (Ipv4Addr::new(240, 0, 0, 0), 4, NonPublic::Reserved),
];

/// IPv6 ranges inside `2000::/3` (global unicast) that are not public.
const V6_RANGES: &[(Ipv6Addr, u32, NonPublic)] = &[
    (
        Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
        32,
        NonPublic::Documentation,
    ),
    (
        Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
        20,
        NonPublic::Documentation,
    ),
    // IETF protocol assignments: Teredo, ORCHID, ...
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        23,
        NonPublic::Reserved,
    ),
    // 6to4.
    (
        Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0),
        16,
        NonPublic::Reserved,
    ),
];

/// The NAT64 well-known prefix, `64:ff9b::/96`: the IPv4 address is in the last 32 bits.
const NAT64: Ipv6Addr = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0);

fn non_public_v4(ip: Ipv4Addr) -> Option<NonPublic> {
    let kind = if ip.is_unspecified() {
        NonPublic::Unspecified
    } else if ip.is_loopback() {
        NonPublic::Loopback
    } else if ip.is_private() {
        NonPublic::Private
    } else if ip.is_link_local() {
        NonPublic::LinkLocal
    } else if ip.is_documentation() {
        NonPublic::Documentation
    } else if ip.is_multicast() {
        NonPublic::Multicast
    } else if ip.is_broadcast() {
        NonPublic::Broadcast
    } else {
        let within = |&&(network, prefix, _): &&(Ipv4Addr, u32, NonPublic)| {
            ip.to_bits() >> (32 - prefix) == network.to_bits() >> (32 - prefix)
        };
        return V4_RANGES.iter().find(within).map(|&(_, _, kind)| kind);
    };
    Some(kind)
}

fn non_public_v6(ip: Ipv6Addr) -> Option<NonPublic> {
    let within = |network: Ipv6Addr, prefix: u32| {
        ip.to_bits() >> (128 - prefix) == network.to_bits() >> (128 - prefix)
    };
    if let Some(v4) = ip.to_ipv4_mapped() {
        return non_public_v4(v4);
    }
    if within(NAT64, 96) {
        let [.., a, b, c, d] = ip.octets();
        return non_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    let kind = if ip.is_unspecified() {
        NonPublic::Unspecified
    } else if ip.is_loopback() {
        NonPublic::Loopback
    } else if ip.is_multicast() {
        NonPublic::Multicast
    } else if ip.is_unique_local() {
        NonPublic::Private
    } else if ip.is_unicast_link_local() {
        NonPublic::LinkLocal
    } else if !within(Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3) {
        NonPublic::Reserved
    } else {
        return V6_RANGES
            .iter()
            .find(|&&(network, prefix, _)| within(network, prefix))
            .map(|&(_, _, kind)| kind);
    };
    Some(kind)
}

/// `localhost`, `localhost.localdomain` and `*.localhost`, which the CI refuses by name.
fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name == "localhost.localdomain" || name.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CI's tests (`TestUrlSafety` in `tests/test_build_registry.py`) and the ranges of
    /// the IANA special-purpose registries.
    #[test]
    fn addresses() {
        use NonPublic::*;
        let table = [
            ("93.184.216.34", None),
            ("8.8.8.8", None),
            ("127.0.0.1", Some(Loopback)),
            ("127.255.0.9", Some(Loopback)),
            ("100.64.0.1", Some(Shared)),
            ("100.127.255.255", Some(Shared)),
            ("100.128.0.1", None),
            ("10.0.0.5", Some(Private)),
            ("172.16.0.1", Some(Private)),
            ("172.31.255.255", Some(Private)),
            ("172.32.0.1", None),
            ("192.168.1.1", Some(Private)),
            ("169.254.169.254", Some(LinkLocal)),
            ("0.0.0.0", Some(Unspecified)),
            ("0.1.2.3", Some(Unspecified)),
            ("192.0.0.8", Some(Reserved)),
            ("192.0.2.1", Some(Documentation)),
            ("198.51.100.7", Some(Documentation)),
            ("203.0.113.9", Some(Documentation)),
            ("198.18.0.1", Some(Benchmarking)),
            ("198.19.255.255", Some(Benchmarking)),
            ("198.20.0.1", None),
            ("224.0.0.1", Some(Multicast)),
            ("239.255.255.250", Some(Multicast)),
            ("240.0.0.1", Some(Reserved)),
            ("255.255.255.255", Some(Broadcast)),
            ("2606:4700::6810:84e5", None),
            ("2a00:1450:4001::200e", None),
            ("::1", Some(Loopback)),
            ("::", Some(Unspecified)),
            ("fc00::1", Some(Private)),
            ("fd12:3456::1", Some(Private)),
            ("fe80::1", Some(LinkLocal)),
            ("ff02::1", Some(Multicast)),
            ("2001:db8::1", Some(Documentation)),
            ("3fff::1", Some(Documentation)),
            ("2001::1", Some(Reserved)),
            ("2002:c000:204::1", Some(Reserved)),
            ("100::1", Some(Reserved)),
            ("fec0::1", Some(Reserved)),
            ("::7f00:1", Some(Reserved)),
            ("::ffff:127.0.0.1", Some(Loopback)),
            ("::ffff:10.0.0.5", Some(Private)),
            ("::ffff:100.64.0.1", Some(Shared)),
            ("::ffff:93.184.216.34", None),
            ("64:ff9b::a00:5", Some(Private)),
            ("64:ff9b::5db8:d822", None),
        ];
        for (address, expect) in table {
            let ip: IpAddr = address.parse().expect("an address");
            assert_eq!(non_public(ip), expect, "{address}");
        }
    }

    #[test]
    fn urls() {
        use Policy::*;
        let table = [
            ("https://example.com/a.tar.gz", Public, Ok(())),
            (
                "http://example.com/archive.tar.gz",
                Public,
                Err("not https"),
            ),
            ("ftp://example.com/a", Public, Err("not https")),
            ("HTTPS://EXAMPLE.COM/a", Public, Ok(())),
            (
                "https://localhost/a",
                Public,
                Err("localhost is a local name"),
            ),
            (
                "https://LOCALHOST./a",
                Public,
                Err("localhost. is a local name"),
            ),
            (
                "https://x.localhost/a",
                Public,
                Err("x.localhost is a local name"),
            ),
            ("https://localhost/a", AllowLoopback, Ok(())),
            ("https://127.0.0.1/a", Public, Ok(())),
            ("http://127.0.0.1:8080/a", Public, Err("not https")),
            ("http://127.0.0.1:8080/a", AllowLoopback, Ok(())),
            ("http://[::1]:8080/a", AllowLoopback, Ok(())),
            ("http://localhost:8080/a", AllowLoopback, Err("not https")),
            ("http://10.0.0.5/a", AllowLoopback, Err("not https")),
            ("http://example.com/a", AllowLoopback, Err("not https")),
            ("data:text/plain,a", Public, Err("no host")),
        ];
        for (url, policy, expect) in table {
            let parsed = Url::parse(url).expect("a URL");
            let got = policy.check_url(&parsed).map_err(|r| r.to_string());
            assert_eq!(got, expect.map_err(str::to_owned), "{url} {policy:?}");
        }
    }

    #[test]
    fn resolved_addresses() {
        use Policy::*;
        let table = [
            (&["93.184.216.34"][..], Public, Ok(())),
            (
                &["93.184.216.34", "10.0.0.5"],
                Public,
                Err("host resolves to a private address (10.0.0.5)"),
            ),
            (
                &["127.0.0.1"],
                Public,
                Err("host resolves to a loopback address (127.0.0.1)"),
            ),
            (&["127.0.0.1", "::1"], AllowLoopback, Ok(())),
            (
                &["127.0.0.1", "192.168.0.2"],
                AllowLoopback,
                Err("host resolves to a private address (192.168.0.2)"),
            ),
            (
                &["100.64.0.1"],
                AllowLoopback,
                Err("host resolves to a shared address (100.64.0.1)"),
            ),
        ];
        for (addresses, policy, expect) in table {
            let addresses: Vec<IpAddr> = addresses
                .iter()
                .map(|a| a.parse().expect("an address"))
                .collect();
            let got = policy
                .check_addresses(&addresses)
                .map_err(|r| r.to_string());
            assert_eq!(got, expect.map_err(str::to_owned), "{addresses:?}");
        }
    }
}
