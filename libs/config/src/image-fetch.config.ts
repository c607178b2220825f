// One entry of TESSERA_IMAGE_FETCH_ALLOW: a host name (`.example.com` for its subdomains), an IP
// address or a CIDR range. Checked at start-up so that a typo is a refusal to start, not an
// allow-list that silently matches nothing.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const HOST_NAME = /^\.?(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i;

export const imageFetchAllowEntry = z
  .string()
  .refine((entry) => HOST_NAME.test(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry), {
    error: (issue) => `'${String(issue.input)}' is not a host name, IP address or CIDR range`,
  });
