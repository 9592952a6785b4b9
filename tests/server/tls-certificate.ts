import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * A throwaway self-signed certificate for 127.0.0.1 and localhost, made with openssl as docs/mqtt.md
 * ("TLS") shows for a test deployment: written as broker.crt and broker.key in `dir`.
 */
export const throwawayCertificate = (dir: string): { certFile: string; keyFile: string } => {
  const certFile = path.join(dir, 'broker.crt');
  const keyFile = path.join(dir, 'broker.key');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1']
      .concat(['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile]),
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
};
