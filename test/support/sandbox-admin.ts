import type { FaultSetting, PageVariant, RequestCounts, RequestTimes } from '@lvs/register-sandbox';

/** A person to add to the sandbox at run time (addLicence), with one Active Door Supervision licence. */
export function sandboxPerson(licenceNumber: string, firstName: string, surname: string, dateOfBirth: string) {
  return {
    licenceNumber,
    firstName,
    middleName: null,
    surname,
    dateOfBirth,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: '2027-03-31',
    status: 'Active',
    statusReason: null,
    additionalConditions: null,
  };
}

/** The sandbox register's admin API, over HTTP as a test or an operator would use it. */
export class SandboxAdmin {
  constructor(private readonly sandboxUrl: string) {}

  async setFault(setting: FaultSetting): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/__sandbox/fault`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(setting),
    });
    if (response.status !== 200) throw new Error(`Sandbox refused fault: ${await response.text()}`);
  }

  async clearFaults(): Promise<void> {
    await fetch(`${this.sandboxUrl}/__sandbox/fault`, { method: 'DELETE' });
  }

  async counts(): Promise<RequestCounts> {
    return (await (await fetch(`${this.sandboxUrl}/__sandbox/requests`)).json()) as RequestCounts;
  }

  /** When each number's requests arrived (epoch ms), since the last resetCounts. */
  async times(): Promise<RequestTimes> {
    return (await (await fetch(`${this.sandboxUrl}/__sandbox/requests/times`)).json()) as RequestTimes;
  }

  async requestsFor(licenceNumber: string): Promise<number> {
    return (await this.counts()).byLicence[licenceNumber] ?? 0;
  }

  /** Changes a licence at run time: new field values, or {removed: true}. */
  async changeLicence(licenceNumber: string, change: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/__sandbox/licences/${licenceNumber}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(change),
    });
    if (response.status !== 200) throw new Error(`Sandbox refused licence change: ${await response.text()}`);
  }

  /** Adds a licence at run time: a new person, or another licence of one already there. */
  async addLicence(licence: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/__sandbox/licences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(licence),
    });
    if (response.status !== 201) throw new Error(`Sandbox refused the licence: ${await response.text()}`);
  }

  /** Name searches since the last resetCounts, for a surname as the sandbox compares it (upper case). */
  async searchesFor(surname: string): Promise<number> {
    return (await this.counts()).bySurname[surname] ?? 0;
  }

  /** Result cards in another layout from now on: an extra labelled field, a wrapper class ({} for the register's own). */
  async setPageVariant(variant: PageVariant): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/__sandbox/page-variant`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(variant),
    });
    if (response.status !== 200) throw new Error(`Sandbox refused the page variant: ${await response.text()}`);
  }

  async resetCounts(): Promise<void> {
    await fetch(`${this.sandboxUrl}/__sandbox/requests`, { method: 'DELETE' });
  }
}
