import { totpQrDataUrl } from './totp-qr-code';

describe('totpQrDataUrl', () => {
  it('draws the address as an SVG data URL', async () => {
    const url = await totpQrDataUrl('otpauth://totp/Licence%20checks:jane%40acme.example?secret=GEZDGNBVGY3TQOJQ&issuer=Licence%20checks');
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(url.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<path');
  });
});
