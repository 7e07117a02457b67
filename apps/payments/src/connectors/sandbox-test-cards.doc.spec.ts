import { SANDBOX_TEST_CARDS } from './sandbox.connector';
import { sandboxTestCardDocs, TEST_CARD_FLAGS } from './sandbox-test-cards.doc';

describe('sandboxTestCardDocs', () => {
  it('documents every card of the connector, each field of each card described', () => {
    const docs = sandboxTestCardDocs();
    expect(docs.map((d) => d.number.replace(/ /g, ''))).toEqual(Object.keys(SANDBOX_TEST_CARDS));
    for (const card of Object.values(SANDBOX_TEST_CARDS))
      for (const key of Object.keys(card)) if (key !== 'outcome') expect(TEST_CARD_FLAGS).toHaveProperty(key);
    expect(docs.find((d) => d.number === '4242 4242 4242 4242')?.behaviour).toBe('The charge succeeds.');
    expect(docs.find((d) => d.number === '4000 0000 0000 0341')?.behaviour).toMatch(
      /later off-session charges/,
    );
  });
});
