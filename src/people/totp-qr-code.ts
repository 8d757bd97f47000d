import { toString } from 'qrcode';

/**
 * The otpauth address as a QR code in an SVG data URL, for an <img> the console's content policy allows (img-src
 * data:) and no script has to draw. Error correction M: a phone reads it off a screen at any size.
 */
export async function totpQrDataUrl(otpauthUri: string): Promise<string> {
  const svg = await toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
