import { classifyInstitution } from './institution-type';

describe('classifyInstitution', () => {
  it.each([
    ['Stanford University', 'UNIVERSITY'],
    ['Universidad de Buenos Aires', 'UNIVERSITY'],
    ['Universität Zürich', 'UNIVERSITY'],
    ['Université de Montréal', 'UNIVERSITY'],
    ['Università di Bologna', 'UNIVERSITY'],
    ['Uppsala Universitet', 'UNIVERSITY'],
    ['Uniwersytet Warszawski', 'UNIVERSITY'],
    ['Univerzita Karlova', 'UNIVERSITY'],
    ['İstanbul Üniversitesi', 'UNIVERSITY'],
    ['Massachusetts Institute of Technology', 'UNIVERSITY'],
    ['University College London', 'UNIVERSITY'],
    ['University High School', 'HIGH_SCHOOL'],
    ['Lycée Henri-IV', 'HIGH_SCHOOL'],
    ['Liceo Scientifico Galileo', 'HIGH_SCHOOL'],
    ['Humboldt-Gymnasium', 'HIGH_SCHOOL'],
    ['Raffles Secondary School', 'HIGH_SCHOOL'],
    ['Lakeside Unified School District', 'K12'],
    ['Boston Public Schools', 'K12'],
    ['Lincoln Elementary', 'K12'],
    ['Valley Middle School', 'K12'],
    ['Springfield K-12 Academy', 'K12'],
    ['Cape Cod Community College', 'POST_SECONDARY'],
    ['Technische Hochschule Köln', 'POST_SECONDARY'],
    ['École Normale Supérieure', 'POST_SECONDARY'],
    ['Politécnico de Leiria', 'POST_SECONDARY'],
    ['Royal Conservatoire of Scotland', 'POST_SECONDARY'],
    ['London Business School', 'POST_SECONDARY'],
    ['Harvard Law School', 'POST_SECONDARY'],
    ['Icahn School of Medicine at Mount Sinai', 'POST_SECONDARY'],
    ['Akademia Górniczo-Hutnicza', 'POST_SECONDARY'],
    ['Some Learning Centre', 'POST_SECONDARY'],
  ])('%j is %s', (name, type) => {
    expect(classifyInstitution(name)).toBe(type);
  });
});
