//! Who the client is: the peer address, or — only when that peer is a proxy
//! listed in `TRUSTED_PROXIES` — the address it forwarded in the one header
//! the deployment names (`TRUSTED_PROXY_HEADER`: `X-Forwarded-For` by
//! default, or `Forwarded`). The other header is never read: proxies pass
//! a header they do not write through untouched, so a client could choose
//! its own address with it. The list is read from the right, each trusted
//! hop stepped over, so what the client itself put before the proxy's entry
//! is never believed; an entry the proxy could not name (`for=unknown`,
//! garbage) is the client "unknown" (`UNKNOWN_CLIENT`), never the proxy. Rate limits and the console's
//! sign-in throttle key on the result; an IPv6 client counts by its /64
//! (one subscriber's whole prefix), since it can change the rest at will.

use std::net::IpAddr;
use std::str::FromStr;

use http::HeaderMap;

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

/// The one header trusted proxies write the client's address in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1` (nginx's
    /// `$proxy_add_x_forwarded_for`, most load balancers).
    #[default]
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client;proto=https, for=proxy1`.
    Forwarded,
}

impl FromStr for ForwardedHeader {
    type Err = String;

    fn from_str(s: &str) -> Result<ForwardedHeader, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(ForwardedHeader::XForwardedFor),
            "forwarded" => Ok(ForwardedHeader::Forwarded),
            other => Err(format!(
                "{other:?}: name X-Forwarded-For or Forwarded, the header the proxy overwrites"
            )),
        }
    }
}

/// The client of a request whose trusted proxy could not name it
/// (`for=unknown`, an obfuscated or unreadable entry): such clients share
/// one limit, apart from the proxy's own address.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);

/// The proxies whose forwarding header is believed, and which header.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies {
    ranges: Vec<Cidr>,
    header: ForwardedHeader,
}

impl TrustedProxies {
    /// `TRUSTED_PROXIES`: ranges or addresses separated by commas or spaces;
    /// their addresses come in `X-Forwarded-For`.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        list.split([',', ' '])
            .filter(|s| !s.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(|ranges| TrustedProxies {
                ranges,
                header: ForwardedHeader::default(),
            })
    }

    /// The same proxies, writing the client's address in `header` instead.
    pub fn reading(self, header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies { header, ..self }
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.ranges.iter().any(|c| c.contains(ip))
    }

    /// The client of a request that came from `peer` with these headers.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> ClientAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return ClientAddr(peer);
        }
        // Right to left: the nearest hop the trusted chain vouches for.
        let mut client = peer;
        for hop in forwarded_hops(headers, self.header).iter().rev() {
            match hop {
                Some(ip) => {
                    client = canonical(*ip);
                    if !self.trusts(client) {
                        break;
                    }
                }
                None => {
                    client = UNKNOWN_CLIENT;
                    break;
                }
            }
        }
        ClientAddr(client)
    }
}

/// The addresses a request passed through, as the proxies wrote them in
/// `header` (`None`: an entry that names no address).
fn forwarded_hops(headers: &HeaderMap, header: ForwardedHeader) -> Vec<Option<IpAddr>> {
    let values = |name: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<&str>>()
    };
    match header {
        ForwardedHeader::XForwardedFor => values("x-forwarded-for")
            .into_iter()
            .map(node_address)
            .collect(),
        ForwardedHeader::Forwarded => values("forwarded")
            .into_iter()
            .map(|element| {
                element.split(';').find_map(|pair| {
                    let (k, v) = pair.trim().split_once('=')?;
                    k.eq_ignore_ascii_case("for")
                        .then(|| node_address(v.trim()))
                })?
            })
            .collect(),
    }
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
                http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
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
        let rfc = lb.clone().reading(ForwardedHeader::Forwarded);
        let h = headers(&[(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8::7]:4711\";proto=https",
        )]);
        assert_eq!(
            rfc.client(ip("10.0.0.1"), &h),
            ClientAddr(ip("2001:db8::7"))
        );
        // Nothing forwarded: the proxy itself.
        assert_eq!(
            lb.client(ip("10.0.0.1"), &HeaderMap::new()),
            ClientAddr(ip("10.0.0.1"))
        );
    }

    #[test]
    fn only_the_named_header_is_believed() {
        // nginx overwrites X-Forwarded-For and passes the client's own
        // Forwarded through: that one must not choose the address.
        let lb = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let h = headers(&[
            ("forwarded", "for=198.51.100.99"),
            ("x-forwarded-for", "203.0.113.7"),
        ]);
        assert_eq!(lb.client(ip("10.0.0.1"), &h), ClientAddr(ip("203.0.113.7")));
        // And the other way round.
        let rfc = lb.reading(ForwardedHeader::Forwarded);
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.99"),
            ("forwarded", "for=203.0.113.7"),
        ]);
        assert_eq!(
            rfc.client(ip("10.0.0.1"), &h),
            ClientAddr(ip("203.0.113.7"))
        );
        // The named header absent: the proxy, never the other header.
        let h = headers(&[("x-forwarded-for", "198.51.100.99")]);
        assert_eq!(rfc.client(ip("10.0.0.1"), &h), ClientAddr(ip("10.0.0.1")));
    }

    #[test]
    fn a_client_the_proxy_cannot_name_is_unknown_not_the_proxy() {
        let rfc = TrustedProxies::parse("10.0.0.0/8")
            .unwrap()
            .reading(ForwardedHeader::Forwarded);
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(rfc.client(ip("10.0.0.1"), &h), ClientAddr(UNKNOWN_CLIENT));
        let xff = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let h = headers(&[("x-forwarded-for", "6.6.6.6, nonsense")]);
        assert_eq!(xff.client(ip("10.0.0.1"), &h), ClientAddr(UNKNOWN_CLIENT));
        // Garbage the client wrote before the proxy's entry is stepped over.
        let h = headers(&[("x-forwarded-for", "nonsense, 203.0.113.7")]);
        assert_eq!(
            xff.client(ip("10.0.0.1"), &h),
            ClientAddr(ip("203.0.113.7"))
        );
        assert!("Via".parse::<ForwardedHeader>().is_err());
        assert_eq!(
            "Forwarded".parse::<ForwardedHeader>(),
            Ok(ForwardedHeader::Forwarded)
        );
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
