import { englishDialect } from './english.dialect';
import { sayMeasures } from './measure.rule';

const US = englishDialect('en-us')!;
const GB = englishDialect('en-gb')!;

describe('sayMeasures', () => {
  it.each([
    ['72°F', '72 degrees Fahrenheit'],
    ['22°C.', '22 degrees Celsius.'],
    ['-5°C', '-5 degrees Celsius'],
    ['−12 °C', '−12 degrees Celsius'],
    ['1°C', '1 degree Celsius'],
    ['-1°F', '-1 degree Fahrenheit'],
    ['98.6 °F', '98.6 degrees Fahrenheit'],
    ['72° F today', '72 degrees Fahrenheit today'],
    ['30°', '30 degrees'],
    ['turn 90° left', 'turn 90 degrees left'],
    ['22℃', '22 degrees Celsius'],
    ['72℉', '72 degrees Fahrenheit'],
    ['5 km', '5 kilometers'],
    ['1 km', '1 kilometer'],
    ['60 km/h', '60 kilometers per hour'],
    ['1 kph', '1 kilometer per hour'],
    ['10 mph', '10 miles per hour'],
    ['5kg', '5 kilograms'],
    ['6 oz', '6 ounces'],
    ['1 ft', '1 foot'],
    ['5 ft', '5 feet'],
    ['2 lbs', '2 pounds'],
    ['1 lb', '1 pound'],
    ['5 min', '5 minutes'],
    ['3 hrs', '3 hours'],
    ['250 ml', '250 milliliters'],
    ['10 kWh', '10 kilowatt hours'],
  ])('en-us: %s → %s', (input, said) => {
    expect(sayMeasures(input, US)).toBe(said);
  });

  it.each([
    ['5 km', '5 kilometres'],
    ['60 km/h', '60 kilometres per hour'],
    ['250 ml', '250 millilitres'],
  ])('en-gb: %s → %s', (input, said) => {
    expect(sayMeasures(input, GB)).toBe(said);
  });

  it.each([
    'the 100 m dash',
    '5 g of salt',
    '5 in a row',
    '300K',
    '20°Celsius',
    '5 km/s',
    'kmph',
    'km 5',
  ])('leaves %j alone', (text) => {
    expect(sayMeasures(text, US)).toBe(text);
  });
});
