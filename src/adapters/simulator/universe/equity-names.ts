/**
 * Generated listed-company names for the long tail of the equity universe: a place or family word
 * joined to an industry ("KAVERITEX", "Kaveri Textiles Ltd"), in a seed-fixed order, never equal
 * to a real symbol already in the universe.
 */
import { ConfigError } from '../../../core/errors.js';
import { Rng } from './rng.js';

const STEMS = [
  'AADHAR', 'ABHAY', 'ADITYA', 'AGNI', 'AJANTA', 'AKASH', 'ALOK', 'AMBIKA', 'AMRIT', 'ANAND', 'ANJANI', 'ARIHANT', 'ARUN',
  'ASHOKA', 'AVANTI', 'BALAJI', 'BHAGYA', 'BHARAT', 'BHAVANI', 'CHAMBAL', 'CHANDRA', 'DEEPAK', 'DHANLAXMI', 'DWARKA',
  'GANGA', 'GANESH', 'GARUDA', 'GAYATRI', 'GODAVARI', 'GOKUL', 'HARIOM', 'HIMALAYA', 'INDRA', 'JAIHIND', 'JAYANT',
  'JYOTI', 'KALINGA', 'KAMDHENU', 'KAVERI', 'KESAR', 'KIRAN', 'KONARK', 'KRISHNA', 'KUBER', 'LAKSHMI', 'MAGADH',
  'MAHAN', 'MALWA', 'MANGAL', 'MEGHDOOT', 'MOTI', 'NALANDA', 'NANDI', 'NARMADA', 'NAVBHARAT', 'NEELKANTH', 'OMKAR',
  'PADMA', 'PANCHSHEEL', 'PARAS', 'PAWAN', 'PRAGATI', 'PRAKASH', 'PRITHVI', 'RAJDHANI', 'RAJHANS', 'RAMA', 'RATNA',
  'REVATI', 'SAGAR', 'SAHYADRI', 'SANGAM', 'SARASWATI', 'SATPURA', 'SHAKTI', 'SHIVAM', 'SHREEJI', 'SIDDHI', 'SINDHU',
  'SUMERU', 'SUNDARAM', 'SURYA', 'SWASTIK', 'TAPTI', 'TRIVENI', 'TULSI', 'UDAY', 'UJJWAL', 'UTKAL', 'VAIBHAV',
  'VARUN', 'VASUDHA', 'VIJAY', 'VIKAS', 'VINDHYA', 'VISHNU', 'YAMUNA', 'YASH',
] as const;

const INDUSTRIES: readonly (readonly [string, string])[] = [
  ['TEX', 'Textiles'], ['POLY', 'Polymers'], ['CHEM', 'Chemicals'], ['STEEL', 'Steel'], ['PHARMA', 'Pharmaceuticals'],
  ['FIN', 'Finance'], ['INFRA', 'Infrastructure'], ['AGRO', 'Agro Industries'], ['CEM', 'Cements'], ['AUTO', 'Auto Components'],
  ['TECH', 'Technologies'], ['POWER', 'Power'], ['FOODS', 'Foods'], ['PAPER', 'Paper Mills'], ['GLASS', 'Glass Works'],
  ['SUGAR', 'Sugars'], ['LOGI', 'Logistics'], ['ENERGY', 'Energy'], ['CERA', 'Ceramics'], ['CABLE', 'Cables'],
  ['PIPES', 'Pipes'], ['HOTELS', 'Hotels'], ['REALTY', 'Realty'], ['MEDI', 'Medicare'], ['ELEC', 'Electricals'],
  ['ENGG', 'Engineering'], ['SOFT', 'Software'], ['DYES', 'Dyes and Intermediates'], ['SEEDS', 'Seeds'], ['METAL', 'Metals'],
];

export interface GeneratedName {
  readonly symbol: string;
  readonly name: string;
}

/** The first `count` generated names (a stable prefix: asking for more only appends). */
export function generateEquityNames(seed: number, count: number, taken: ReadonlySet<string>): GeneratedName[] {
  const combos: GeneratedName[] = [];
  for (const stem of STEMS)
    for (const [code, industry] of INDUSTRIES) {
      const symbol = `${stem}${code}`;
      if (symbol.length <= 20 && !taken.has(symbol)) combos.push({ symbol, name: `${title(stem)} ${industry} Ltd` });
    }
  // Seeded Fisher-Yates so the universe's mix of industries differs with the seed but not run to run.
  const rng = new Rng(seed, 'equity-names');
  for (let i = combos.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [combos[i], combos[j]] = [combos[j]!, combos[i]!];
  }
  if (count > combos.length) {
    throw new ConfigError(`at most ${combos.length} generated equity names are available, ${count} asked (lower nseEquities/bseEquities)`, { available: combos.length, asked: count });
  }
  return combos.slice(0, count);
}

function title(word: string): string {
  return word.charAt(0) + word.slice(1).toLowerCase();
}
