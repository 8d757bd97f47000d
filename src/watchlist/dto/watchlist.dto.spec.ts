import { RequestValidationPipe } from '../../validation/request-validation.pipe';
import { WatchRequestDto } from './watchlist.dto';

const pipe = new RequestValidationPipe();
const read = (body: unknown) => pipe.transform(body, { type: 'body', metatype: WatchRequestDto });
const HOLDER =
  'holder must be {"firstName","surname"} with an optional dateOfBirth: names of 1 to 50 letters, spaces, hyphens or apostrophes, and a real YYYY-MM-DD date';

describe('WatchRequestDto', () => {
  it('takes a reference, a holder with or without a date of birth, and followSuccessor', async () => {
    const body = { reference: 'guard-7', holder: { firstName: 'Petra', surname: 'Novak', dateOfBirth: '1991-02-03' }, followSuccessor: true };
    await expect(read(body)).resolves.toMatchObject(body);
    await expect(read({ holder: { firstName: 'Petra', surname: 'Novak' } })).resolves.toMatchObject({ holder: { surname: 'Novak' } });
  });

  it.each([
    ['a holder that is not an object', { holder: 'Petra Novak' }, HOLDER],
    ['a holder without a surname', { holder: { firstName: 'Petra' } }, HOLDER],
    ['a holder with a bad date', { holder: { firstName: 'Petra', surname: 'Novak', dateOfBirth: '03/02/1991' } }, HOLDER],
    ['a holder with another field', { holder: { firstName: 'Petra', surname: 'Novak', middleName: 'J' } }, HOLDER],
    ['followSuccessor as text', { followSuccessor: 'yes' }, 'followSuccessor must be true or false'],
    ['another field', { reference: 'x', colour: 'red' }, 'Request body may only contain reference, holder and followSuccessor'],
  ])('refuses %s', async (_what, body, message) => {
    await expect(read(body)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: message });
  });
});
