/** Blood pressure limits wide enough for any reading a chamber's cuff reports, narrow enough to catch typos. */
const BLOOD_PRESSURE = { systolic: { min: 50, max: 300 }, diastolic: { min: 20, max: 200 } } as const;

const BLOOD_PRESSURE_PATTERN = /^(\d{2,3})\/(\d{2,3})$/;

/** "120/80": systolic above diastolic, both within BLOOD_PRESSURE. */
export const isBloodPressure = (value: string): boolean => {
  const match = BLOOD_PRESSURE_PATTERN.exec(value);
  if (!match) return false;
  const [systolic, diastolic] = [Number(match[1]), Number(match[2])];
  const { systolic: s, diastolic: d } = BLOOD_PRESSURE;
  return systolic > diastolic && systolic >= s.min && systolic <= s.max && diastolic >= d.min && diastolic <= d.max;
};

/** The systolic value of a blood pressure reading, or undefined when it is not one. */
export const systolicOf = (value: string): number | undefined => (isBloodPressure(value) ? Number(BLOOD_PRESSURE_PATTERN.exec(value)?.[1]) : undefined);

/** The diastolic value of a blood pressure reading, or undefined when it is not one. */
export const diastolicOf = (value: string): number | undefined => (isBloodPressure(value) ? Number(BLOOD_PRESSURE_PATTERN.exec(value)?.[2]) : undefined);
