import { sayCurrency } from './currency.rule';

describe('sayCurrency', () => {
  it.each([
    ['$3.50', '3 dollars and 50 cents'],
    ['$3.5', '3 dollars and 50 cents'],
    ['$17.25 each', '17 dollars and 25 cents each'],
    ['$1', '1 dollar'],
    ['$1.00', '1 dollar'],
    ['$1.01', '1 dollar and 1 cent'],
    ['$0.99', '99 cents'],
    ['$21,000.', '21,000 dollars.'],
    ['$1,000,000', '1,000,000 dollars'],
    ['$0.005', '0.005 dollars'],
    ['$ 5', '5 dollars'],
    ['-$5', 'minus 5 dollars'],
    ['−$7.25', 'minus 7 dollars and 25 cents'],
    ['$-5', 'minus 5 dollars'],
    ['$3.2 million', '3.2 million dollars'],
    ['$3.2M', '3.2 million dollars'],
    ['$5k', '5 thousand dollars'],
    ['$2bn', '2 billion dollars'],
    ['$1.5T', '1.5 trillion dollars'],
    ['$1 million', '1 million dollars'],
    ['$5-10', '5 to 10 dollars'],
    ['$5–$10', '5 to 10 dollars'],
    ['$1-2 million', '1 to 2 million dollars'],
    ['$3.50-$4.00', '3 dollars and 50 cents to 4 dollars'],
    ['£500', '500 pounds'],
    ['£1.01', '1 pound and 1 penny'],
    ['£0.50', '50 pence'],
    ['€3.2 million', '3.2 million euros'],
    ['€1', '1 euro'],
    ['¥1000', '1000 yen'],
    ['¥3.5', '3.5 yen'],
    ['₹500.75', '500 rupees and 75 paise'],
    ['US$5', '5 US dollars'],
    ['C$20', '20 Canadian dollars'],
    ['A$3.50', '3 Australian dollars and 50 cents'],
    ['5 USD', '5 US dollars'],
    ['USD 5.25', '5 US dollars and 25 cents'],
    ['10 million EUR', '10 million euros'],
    ['GBP 1', '1 pound'],
  ])('%s → %s', (input, said) => {
    expect(sayCurrency(input)).toBe(said);
  });

  it.each([
    'costs $$ nothing',
    '$HOME is set',
    'a 5% rise',
    'US$ alone',
    'the USD index',
    'in 2024 USDA said',
    'AB$5',
    '$5x',
  ])('leaves %j alone', (text) => {
    expect(sayCurrency(text)).toBe(text);
  });
});
