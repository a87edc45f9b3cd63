//! Who the client is: the peer address, or — only when that peer is a proxy
//! listed in `TRUSTED_PROXIES` — the address it forwarded
//! (`X-Forwarded-For`, or `Forwarded: for=`). The list is read from the
//! right, each trusted hop stepped over, so a client cannot choose its own
//! address by sending the header itself. Rate limits and the console's
//! sign-in throttle key on the result; an IPv6 client counts by its /64
//! (one subscriber's whole prefix), since it can change the rest at will.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// The client of a request, set by the server's outermost middleware.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The key rate limits count by: the address, or an IPv6 address's /64.
    pub fn limit_key(self) -> IpAddr {
        match self.0 {
            IpAddr::V6(v6) => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
            v4 => v4,
        }
    }
}

/// An address range: `10.0.0.0/8`, `2001:db8::/32`, or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                masked(u32::from(net).into(), 32, self.prefix)
                    == masked(u32::from(ip).into(), 32, self.prefix)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                masked(net.into(), 128, self.prefix) == masked(ip.into(), 128, self.prefix)
            }
            _ => false,
        }
    }
}

fn masked(bits: u128, width: u8, prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits >> (width - prefix)
    }
}

/// An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let network = canonical(
            addr.trim()
                .parse::<IpAddr>()
                .map_err(|_| format!("{s:?} is not an address or a range"))?,
        );
        let width = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= width)
                .ok_or_else(|| format!("{s:?}: the prefix must be 0 to {width}"))?,
            None => width,
        };
        Ok(Cidr { network, prefix })
    }
}

/// The proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<Cidr>);

impl TrustedProxies {
    /// `TRUSTED_PROXIES`: ranges or addresses separated by commas or spaces.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        list.split([',', ' '])
            .filter(|s| !s.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|c| c.contains(ip))
    }

    /// The client of a request that came from `peer` with these headers.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> ClientAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return ClientAddr(peer);
        }
        let hops = forwarded_hops(headers);
        // Right to left: the nearest hop the trusted chain vouches for.
        let mut client = peer;
        for hop in hops.iter().rev() {
            client = *hop;
            if !self.trusts(*hop) {
                break;
            }
        }
        ClientAddr(client)
    }
}

/// The addresses a request passed through, as the proxies wrote them
/// (`Forwarded` when present, else `X-Forwarded-For`); unreadable entries
/// end the list there, so nothing before them is believed.
fn forwarded_hops(headers: &HeaderMap) -> Vec<IpAddr> {
    let forwarded: Vec<String> = headers
        .get_all("forwarded")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (k, v) = pair.trim().split_once('=')?;
                k.eq_ignore_ascii_case("for").then(|| v.trim().to_string())
            })
        })
        .collect();
    let entries: Vec<String> = if forwarded.is_empty() {
        headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_string())
            .collect()
    } else {
        forwarded
    };
    let parsed: Vec<Option<IpAddr>> = entries.iter().map(|e| node_address(e)).collect();
    // Only the unbroken run of readable entries nearest to us counts.
    let start = parsed
        .iter()
        .rposition(Option::is_none)
        .map_or(0, |i| i + 1);
    parsed[start..]
        .iter()
        .flatten()
        .copied()
        .map(canonical)
        .collect()
}

/// `203.0.113.7`, `"[2001:db8::1]:4711"`, `198.51.100.1:80` → the address.
fn node_address(entry: &str) -> Option<IpAddr> {
    let e = entry.trim().trim_matches('"');
    if let Ok(ip) = e.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = e.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    let (host, port) = e.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let none = TrustedProxies::default();
        let h = headers(&[("x-forwarded-for", "1.2.3.4")]);
        assert_eq!(none.client(ip("9.9.9.9"), &h), ClientAddr(ip("9.9.9.9")));
        let lb = TrustedProxies::parse("10.0.0.0/8").unwrap();
        assert_eq!(lb.client(ip("9.9.9.9"), &h), ClientAddr(ip("9.9.9.9")));
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_hop_is_the_client() {
        let lb = TrustedProxies::parse("10.0.0.0/8, 192.168.1.1").unwrap();
        // The client sent a made-up address first; the proxies appended.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.7, 10.1.2.3")]);
        assert_eq!(
            lb.client(ip("192.168.1.1"), &h),
            ClientAddr(ip("203.0.113.7"))
        );
        let h = headers(&[(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8::7]:4711\";proto=https",
        )]);
        assert_eq!(lb.client(ip("10.0.0.1"), &h), ClientAddr(ip("2001:db8::7")));
        // Nothing forwarded: the proxy itself.
        assert_eq!(
            lb.client(ip("10.0.0.1"), &HeaderMap::new()),
            ClientAddr(ip("10.0.0.1"))
        );
        // Garbage ends what is believed.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, nonsense")]);
        assert_eq!(lb.client(ip("10.0.0.1"), &h), ClientAddr(ip("10.0.0.1")));
    }

    #[test]
    fn ranges_parse_and_match() {
        let c: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(c.contains(ip("2001:db8:ffff::1")));
        assert!(!c.contains(ip("2001:db9::1")));
        let c: Cidr = "127.0.0.1".parse().unwrap();
        assert!(c.contains(ip("::ffff:127.0.0.1")));
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!(TrustedProxies::parse("10.0.0.0/8,nonsense").is_err());
        assert!("0.0.0.0/0".parse::<Cidr>().unwrap().contains(ip("8.8.8.8")));
    }

    #[test]
    fn ipv6_clients_count_by_their_64() {
        let a = ClientAddr(ip("2001:db8:1:2:aaaa::1")).limit_key();
        let b = ClientAddr(ip("2001:db8:1:2:bbbb::9")).limit_key();
        let c = ClientAddr(ip("2001:db8:1:3::1")).limit_key();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(ClientAddr(ip("1.2.3.4")).limit_key(), ip("1.2.3.4"));
    }
}
